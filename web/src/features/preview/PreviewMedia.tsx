import type { FileDto } from '@nimbus/common';
import { useQuery } from '@tanstack/react-query';
import { useState, type SyntheticEvent } from 'react';
import { fullImageUrl, getVideoInfo, streamVideoUrl } from '../../api/media.api';
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

export const VIDEO_MESSAGES = {
  preparing: 'This video is being prepared for playback…',
  cannotPlay: 'This video cannot be played in the browser. Download it to watch it.',
};

/** How often the player asks again while a playable copy is being made. */
export const PREPARING_POLL_MS = 3000;

/**
 * The video player, streaming with seeking once the stream credential is there (`src`: an earlier
 * content, read with the session, played as stored). A video the browser cannot play as stored
 * waits, saying so, until the server's playable copy exists, then plays that.
 */
export function PreviewVideo({ file, credential, src }: { file: FileDto; credential: CredentialStatus; src?: string }) {
  const [failure, setFailure] = useState<'stream' | 'codec' | null>(null);
  const info = useQuery({
    queryKey: ['video-info', file._id],
    queryFn: () => getVideoInfo(file._id),
    enabled: src === undefined,
    retry: false,
    refetchInterval: (query) => (query.state.data?.state === 'preparing' ? PREPARING_POLL_MS : false),
  });
  // Without an answer (an older server, a network hiccup) the original is tried as before.
  const state = src === undefined && !info.isError ? info.data?.state : 'original';
  if (credential === 'error' || failure === 'stream') return <PreviewError message={FILE_MESSAGES.errorGettingVideo} />;
  if (state === 'failed' || failure === 'codec') return <PreviewError message={VIDEO_MESSAGES.cannotPlay} />;
  if (state === 'preparing') {
    return (
      <div aria-live="polite" className="flex flex-col items-center gap-3 rounded-2xl bg-white/10 px-8 py-6 text-white">
        <Spinner className="size-10" label="Preparing video" />
        <p className="text-base">{VIDEO_MESSAGES.preparing}</p>
      </div>
    );
  }
  if (credential !== 'ready' || state === undefined) return <Spinner className="size-10" label="Loading video" />;
  const onError = (event: SyntheticEvent<HTMLVideoElement>) => {
    const code = event.currentTarget.error?.code;
    // Decoding or format errors mean this browser cannot play it; anything else is the stream's.
    setFailure(code === 3 || code === 4 ? 'codec' : 'stream');
  };
  return (
    <video
      // A copy that became ready replaces the original's element.
      key={state}
      src={src ?? streamVideoUrl(file._id)}
      controls
      autoPlay
      playsInline
      preload="metadata"
      data-testid="preview-video"
      data-playback={state}
      aria-label={file.filename}
      onError={onError}
      className="max-h-full max-w-full rounded bg-black shadow-2xl"
    />
  );
}
