import type { AdminModelStatusDto } from '@nimbus/common';

/** "clip-vit-base-patch32 — downloading 43 %": the hub repository's name without its owner. */
export function modelStatusText(model: AdminModelStatusDto): string {
  if (model.name === null || model.state === 'off') return 'Off';
  const name = model.name.slice(model.name.indexOf('/') + 1);
  switch (model.state) {
    case 'ready':
      return `${name} — ready`;
    case 'downloading':
      return `${name} — downloading ${model.bytesTotal > 0 ? Math.floor((model.bytesDone / model.bytesTotal) * 100) : 0} %`;
    case 'failed':
      return `${name} — failed: ${model.error ?? 'unknown error'}`;
    case 'missing':
      return `${name} — not downloaded yet`;
  }
}

/** Until the model is ready, AI search runs on the bundled pipeline: the note says so. */
export function ModelStatusText({ model }: { model: AdminModelStatusDto }) {
  const fallback = model.state === 'failed' || model.state === 'downloading' || model.state === 'missing';
  return (
    <span className="inline-flex flex-col items-end">
      <span className={model.state === 'failed' ? 'text-red-700' : undefined}>{modelStatusText(model)}</span>
      {fallback && <span className="text-xs font-normal text-muted">Search uses the bundled model meanwhile</span>}
    </span>
  );
}
