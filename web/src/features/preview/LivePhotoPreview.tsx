import type { FileDto } from '@nimbus/common';
import { useState } from 'react';
import { motionUrlOf } from '../../api/live-photos';
import { PlayIcon } from '../../components/file-icons';
import { Spinner } from '../../components/Spinner';
import { PreviewImage } from './PreviewMedia';
import type { CredentialStatus } from './useStreamCredential';

/**
 * A Live Photo or motion photo: the still, with a button that plays its motion in its place (with
 * sound, once, back to the still at the end). The originals stay downloadable from the menu.
 */
export function LivePhotoPreview({ file, credential }: { file: FileDto; credential: CredentialStatus }) {
  const [playing, setPlaying] = useState(false);
  const url = motionUrlOf(file);
  if (!url) return <PreviewImage file={file} />;
  return (
    <div className="relative flex max-h-full max-w-full items-center justify-center">
      {playing && credential === 'ready' ? (
        <video
          src={url}
          autoPlay
          playsInline
          controls
          data-testid="preview-live-motion"
          aria-label={`${file.filename} (motion)`}
          onEnded={() => setPlaying(false)}
          onError={() => setPlaying(false)}
          className="max-h-full max-w-full rounded bg-black shadow-2xl"
        />
      ) : (
        <PreviewImage file={file} />
      )}
      {playing && credential === 'loading' && <Spinner className="absolute size-10" label="Loading motion" />}
      {!playing && (
        <button
          type="button"
          onClick={() => setPlaying(true)}
          disabled={credential === 'error'}
          className="absolute top-3 left-3 flex items-center gap-1 rounded-full bg-black/60 px-3 py-1.5 text-xs font-semibold tracking-wide text-white hover:bg-black/80 focus-visible:outline-2 focus-visible:outline-white disabled:opacity-50"
        >
          <PlayIcon className="size-4" />
          LIVE
        </button>
      )}
    </div>
  );
}
