import { useEffect, useRef, useState } from 'react';
import { getStreamToken, removeStreamToken } from '../../api/media.api';
import { toast } from '../notifications/toast';
import { FILE_MESSAGES } from '../popups/file-messages';

export type CredentialStatus = 'idle' | 'loading' | 'ready' | 'error';

/**
 * The video stream credential (a cookie) for as long as the preview is open: taken when a video is
 * first shown and removed when the preview closes. Failing to get it shows "Error getting video".
 */
export function useStreamCredential(needed: boolean): CredentialStatus {
  const [status, setStatus] = useState<CredentialStatus>('idle');
  const acquired = useRef(false);
  const mounted = useRef(true);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      if (acquired.current) void removeStreamToken().catch(() => undefined);
    };
  }, []);

  useEffect(() => {
    if (!needed || status === 'ready' || status === 'loading') return;
    setStatus('loading');
    getStreamToken().then(
      () => {
        acquired.current = true;
        if (mounted.current) setStatus('ready');
      },
      () => {
        toast.error(FILE_MESSAGES.errorGettingVideo);
        if (mounted.current) setStatus('error');
      },
    );
    // Only a newly needed credential starts a request; a failure is not retried for the same preview.
  }, [needed]);

  return status;
}
