import { formatBytes } from '../format/format-size';

/** Bytes used against a quota as a thin bar with its figures; just the figure when there is no quota. */
export function UsageBar({ used, quota }: { used: number; quota: number | null }) {
  if (quota === null) return <span>{formatBytes(used)}</span>;
  const percent = quota > 0 ? Math.min(100, Math.round((used / quota) * 100)) : 100;
  const full = percent >= 90;
  return (
    <div className="min-w-28">
      <span>
        {formatBytes(used)} of {formatBytes(quota)}
      </span>
      <div
        role="progressbar"
        aria-label="Storage used"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="mt-1 h-1.5 overflow-hidden rounded-full bg-gray-200"
      >
        <div className={`h-full rounded-full ${full ? 'bg-red-600' : 'bg-primary'}`} style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}
