import type { FileDto } from '@nimbus/common';
import { useState } from 'react';
import { fullImageUrl, streamVideoUrl } from '../../api/media.api';
import { BrokenImageIcon } from '../../components/file-icons';
import { Spinner } from '../../components/Spinner';
import { FILE_MESSAGES } from '../popups/file-messages';
import type { CredentialStatus } from './useStreamCredential';

function PreviewError({ message }: { message: string }) {
  return (
    <div role="alert" className="flex flex-col items-center gap-3 rounded-2xl bg-white/10 px-8 py-6 text-white">
      <BrokenImageIcon className="size-12 text-white/70" />
      <p className="text-base">{message}</p>
    </div>
  );
}

/** The full-size image (or `src`, an earlier content of the file); "Error loading image" when it cannot be loaded. */
export function PreviewImage({ file, src }: { file: FileDto; src?: string }) {
  const [status, setStatus] = useState<'loading' | 'loaded' | 'error'>('loading');
  if (status === 'error') return <PreviewError message={FILE_MESSAGES.errorLoadingImage} />;
  return (
    <>
      {status === 'loading' && <Spinner className="absolute size-10" label="Loading image" />}
      <img
        src={src ?? fullImageUrl(file._id)}
        alt={file.filename}
        data-testid="preview-image"
        onLoad={() => setStatus('loaded')}
        onError={() => setStatus('error')}
        className={`max-h-full max-w-full rounded object-contain shadow-2xl ${status === 'loaded' ? '' : 'opacity-0'}`}
      />
    </>
  );
}

/** The video player, streaming with seeking once the stream credential is there (`src`: an earlier content, read with the session). */
export function PreviewVideo({ file, credential, src }: { file: FileDto; credential: CredentialStatus; src?: string }) {
  const [failed, setFailed] = useState(false);
  if (credential === 'error' || failed) return <PreviewError message={FILE_MESSAGES.errorGettingVideo} />;
  if (credential !== 'ready') return <Spinner className="size-10" label="Loading video" />;
  return (
    <video
      src={src ?? streamVideoUrl(file._id)}
      controls
      autoPlay
      playsInline
      preload="metadata"
      data-testid="preview-video"
      aria-label={file.filename}
      onError={() => setFailed(true)}
      className="max-h-full max-w-full rounded bg-black shadow-2xl"
    />
  );
}
