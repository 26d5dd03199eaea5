import type { FileDto } from '@nimbus/common';
import { useCallback, useEffect, useRef, useState, type ComponentProps } from 'react';
import { downloadItems } from '../../api/download';
import { motionUrlOf } from '../../api/live-photos';
import { getStreamToken } from '../../api/media.api';
import { DownloadIcon } from '../../components/drive-icons';
import type { ItemMenuExtras } from '../context-menu/item-menu-extras';

/** The stream cookie lasts longer than this; taking it again after a while covers a preview that removed it. */
const CREDENTIAL_REUSE_MS = 5 * 60_000;
let credential: { at: number; taken: Promise<void> } | null = null;

/** The cookie that lets a <video> play the motion, taken once for the whole gallery. */
function streamCredential(fresh = false): Promise<void> {
  if (!fresh && credential && Date.now() - credential.at < CREDENTIAL_REUSE_MS) return credential.taken;
  const taken = getStreamToken();
  credential = { at: Date.now(), taken };
  taken.catch(() => {
    if (credential?.taken === taken) credential = null;
  });
  return taken;
}

/**
 * Plays a photo's motion in place of its still while the pointer rests on it (or a finger presses
 * it): muted, looping, from the start each time.
 */
export function useLiveMotion(file: FileDto) {
  const url = motionUrlOf(file);
  const [wanted, setWanted] = useState(false);
  const [ready, setReady] = useState(false);
  const retried = useRef(false);

  const start = useCallback(() => {
    if (!url) return;
    setWanted(true);
    streamCredential().then(
      () => setReady(true),
      () => setWanted(false),
    );
  }, [url]);
  const stop = useCallback(() => {
    setWanted(false);
    setReady(false);
  }, []);

  // The cookie may have gone meanwhile (a preview that closed removes it): take it again once.
  const onError = useCallback(() => {
    if (retried.current) return stop();
    retried.current = true;
    setReady(false);
    streamCredential(true).then(
      () => setReady(true),
      () => stop(),
    );
  }, [stop]);

  useEffect(() => {
    if (!wanted) retried.current = false;
  }, [wanted]);

  const element =
    url && wanted && ready ? (
      <video
        data-testid="live-motion"
        src={url}
        muted
        autoPlay
        loop
        playsInline
        preload="auto"
        onError={onError}
        className="pointer-events-none absolute inset-0 size-full object-cover"
      />
    ) : null;
  return { hasMotion: url !== null, playing: wanted, start, stop, element };
}

/** The small "LIVE" mark of a Live Photo or motion photo in the grid. */
export function LiveBadge() {
  return (
    <span
      data-testid="live-badge"
      className="pointer-events-none absolute top-1.5 left-1.5 rounded bg-black/60 px-1.5 py-0.5 text-[10px] font-semibold tracking-wide text-white"
    >
      LIVE
    </span>
  );
}

/** The gallery's extra menu entry for a Live Photo: its MOV, which the gallery does not show on its own. */
export const liveMenuEntries: ComponentProps<typeof ItemMenuExtras>['entries'] = (item) => {
  const videoId = item.type === 'file' ? item.file.metadata.livePhoto?.videoId : undefined;
  if (!videoId) return [];
  return [{ label: 'Download video', icon: DownloadIcon, onSelect: () => void downloadItems([{ type: 'file', id: videoId }]) }];
};
