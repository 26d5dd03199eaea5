import type { MouseEvent } from 'react';
import { MoreVertIcon } from '../../components/drive-icons';

/** The "⋮" button of an item: opens its context menu under the button. */
export function MoreButton({
  name,
  onOpen,
  className = '',
}: {
  name: string;
  onOpen: (at: { x: number; y: number }) => void;
  className?: string;
}) {
  const open = (event: MouseEvent<HTMLButtonElement>) => {
    event.stopPropagation();
    const rect = event.currentTarget.getBoundingClientRect();
    onOpen({ x: rect.left, y: rect.bottom + 4 });
  };
  return (
    <button
      type="button"
      aria-label={`More actions for ${name}`}
      title="More actions"
      onClick={open}
      onContextMenu={(event) => event.stopPropagation()}
      className={`flex size-9 shrink-0 items-center justify-center rounded-full text-muted hover:bg-black/10 focus-visible:outline-2 focus-visible:outline-primary ${className}`}
    >
      <MoreVertIcon className="size-5" />
    </button>
  );
}
