import { useEffect, useLayoutEffect, useRef, useState, type ComponentType } from 'react';
import { createPortal } from 'react-dom';
import { useFocusTrap } from '../../components/useFocusTrap';

export interface ContextMenuEntry {
  label: string;
  icon: ComponentType<{ className?: string }>;
  onSelect: () => void;
  danger?: boolean;
}

interface ContextMenuProps {
  /** Accessible name, e.g. "Actions for report.pdf". */
  label: string;
  at: { x: number; y: number };
  entries: ContextMenuEntry[];
  onClose: () => void;
}

const MARGIN = 8;

/**
 * The floating menu of an item: opened at the pointer, kept on screen, closed by a click elsewhere,
 * Escape, scrolling, resizing or choosing an entry. Arrow keys move between entries.
 */
export function ContextMenu({ label, at, entries, onClose }: ContextMenuProps) {
  const menu = useRef<HTMLDivElement>(null);
  // The first item takes focus; a dialog below pauses its own trap until the menu closes.
  useFocusTrap(menu);
  const [position, setPosition] = useState(at);
  const closeRef = useRef(onClose);
  useEffect(() => {
    closeRef.current = onClose;
  });

  useLayoutEffect(() => {
    const rect = menu.current?.getBoundingClientRect();
    if (!rect) return;
    setPosition({
      x: Math.max(MARGIN, Math.min(at.x, window.innerWidth - rect.width - MARGIN)),
      y: Math.max(MARGIN, Math.min(at.y, window.innerHeight - rect.height - MARGIN)),
    });
  }, [at.x, at.y]);

  useEffect(() => {
    const close = () => closeRef.current();
    const onPointer = (event: PointerEvent) => {
      if (!menu.current?.contains(event.target as Node)) close();
    };
    const onScroll = (event: Event) => {
      if (!menu.current?.contains(event.target as Node)) close();
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.stopPropagation();
        close();
        return;
      }
      if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
      event.preventDefault();
      const items = Array.from(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);
      const index = items.indexOf(document.activeElement as HTMLElement);
      items[(index + (event.key === 'ArrowDown' ? 1 : -1) + items.length) % items.length]?.focus();
    };
    document.addEventListener('pointerdown', onPointer, true);
    document.addEventListener('keydown', onKey, true);
    document.addEventListener('scroll', onScroll, true);
    window.addEventListener('resize', close);
    return () => {
      document.removeEventListener('pointerdown', onPointer, true);
      document.removeEventListener('keydown', onKey, true);
      document.removeEventListener('scroll', onScroll, true);
      window.removeEventListener('resize', close);
    };
  }, []);

  return createPortal(
    <div
      ref={menu}
      role="menu"
      aria-label={label}
      style={{ left: position.x, top: position.y }}
      className="fixed z-[60] min-w-52 overflow-hidden rounded-xl bg-white py-2 shadow-xl ring-1 ring-black/10"
      onContextMenu={(event) => event.preventDefault()}
      onClick={(event) => event.stopPropagation()}
    >
      {entries.map(({ label: text, icon: Icon, danger, onSelect }) => (
        <button
          key={text}
          type="button"
          role="menuitem"
          onClick={() => {
            closeRef.current();
            onSelect();
          }}
          className={`flex w-full items-center gap-3 px-4 py-2.5 text-left text-sm hover:bg-gray-100 focus:bg-gray-100 focus:outline-none ${danger ? 'text-red-600' : 'text-ink'}`}
        >
          <Icon className={`size-5 ${danger ? 'text-red-600' : 'text-muted'}`} />
          {text}
        </button>
      ))}
    </div>,
    document.body,
  );
}
