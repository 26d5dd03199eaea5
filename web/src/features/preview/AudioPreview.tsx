import type { FileDto } from '@nimbus/common';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { downloadUrl, thumbnailUrl } from '../../api/drive.api';
import { getAudioInfo, type AudioInfo } from '../../api/file-content.api';

/** 3:07, or 1:02:07 past an hour. */
export function formatDuration(seconds: number): string {
  const total = Math.round(seconds);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** What the tags say about the track: its cover (the file's thumbnail), title, artist, album and length. */
export function AudioDetails({ file, info }: { file: FileDto; info: AudioInfo | undefined }) {
  const cover = file.metadata.hasThumbnail ? thumbnailUrl(file.metadata.thumbnailID) : null;
  return (
    <div className="flex flex-col items-center gap-4 text-center text-white">
      {cover ? (
        <img src={cover} alt="Cover art" data-testid="audio-cover" className="size-56 rounded-lg object-cover shadow-2xl sm:size-72" />
      ) : (
        <div aria-hidden="true" className="flex size-56 items-center justify-center rounded-lg bg-white/10 text-7xl sm:size-72">
          ♪
        </div>
      )}
      <div data-testid="audio-info" className="flex flex-col gap-1">
        <p className="text-xl font-semibold">{info?.title ?? file.filename}</p>
        {info?.artist && <p className="text-base text-white/80">{info.artist}</p>}
        {info?.album && <p className="text-sm text-white/60">{info.album}</p>}
        {info?.durationSeconds != null && <p className="text-sm text-white/60">{formatDuration(info.durationSeconds)}</p>}
      </div>
    </div>
  );
}

/** An audio file playing, with what its tags say about it. */
export function AudioPreview({ file }: { file: FileDto }) {
  const info = useQuery({ queryKey: ['audio-info', file._id], queryFn: () => getAudioInfo(file._id), staleTime: Infinity, retry: false });
  const [failed, setFailed] = useState(false);
  return (
    <div className="flex w-full max-w-lg flex-col items-center gap-6">
      <AudioDetails file={file} info={info.data} />
      {failed ? (
        <p role="alert" className="text-white">
          This audio cannot be played here; download it to listen.
        </p>
      ) : (
        <audio
          src={downloadUrl(file._id)}
          controls
          autoPlay
          preload="metadata"
          data-testid="preview-audio"
          aria-label={file.filename}
          onError={() => setFailed(true)}
          className="w-full"
        />
      )}
    </div>
  );
}
