import { useCallback, useEffect, useLayoutEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { flushSync } from 'react-dom';

interface VirtualGridProps {
  count: number;
  /** The element that scrolls the grid (an ancestor). */
  scrollRef: RefObject<HTMLElement | null>;
  /** Height of one row including the gap below it. */
  rowHeight: number;
  /** Columns are as many as fit at this width (which may depend on the grid's width); one column when unset. */
  minColumnWidth?: number | ((gridWidth: number) => number);
  gap?: number;
  /** Rows rendered beyond each edge of the visible area. */
  overscan?: number;
  renderItem: (index: number) => ReactNode;
  className?: string;
  role?: string;
  label?: string;
  multiselectable?: boolean;
}

interface Viewport {
  width: number;
  first: number;
  last: number;
}

/** Without layout (e.g. before the first measure) the grid assumes a common desktop viewport. */
const FALLBACK_WIDTH = 1024;
const FALLBACK_HEIGHT = 900;

export function columnsFor(width: number, minColumnWidth: VirtualGridProps['minColumnWidth'], gap: number): number {
  const min = typeof minColumnWidth === 'function' ? minColumnWidth(width) : minColumnWidth;
  if (!min) return 1;
  return Math.max(1, Math.floor((width + gap) / (min + gap)));
}

/**
 * A grid (or list) that renders only the rows near the visible part of its scroll container, so a
 * folder of thousands of files costs the same to scroll as one screenful.
 */
export function VirtualGrid(props: VirtualGridProps) {
  const { count, scrollRef, rowHeight, minColumnWidth, gap = 0, overscan = 4, renderItem } = props;
  const container = useRef<HTMLDivElement>(null);
  const [view, setView] = useState<Viewport>({ width: 0, first: 0, last: 0 });
  /** Where the grid starts inside the scrolled content, and the sizes that only change on resize. */
  const layout = useRef({ offset: 0, width: 0, height: 0 });

  /** The rows near the visible area, from the scroll position alone (no layout read while scrolling). */
  const update = useCallback(
    (sync: boolean) => {
      const scroller = scrollRef.current;
      if (!scroller) return;
      const { offset, width, height } = layout.current;
      const top = offset - scroller.scrollTop;
      const first = Math.max(0, Math.floor(-top / rowHeight) - overscan);
      const last = Math.max(first, Math.ceil((height - top) / rowHeight) + overscan);
      const apply = () =>
        setView((current) =>
          current.width === width && current.first === first && current.last === last ? current : { width, first, last },
        );
      // While scrolling, new rows are committed in the same frame so no blank rows are painted.
      if (sync) flushSync(apply);
      else apply();
    },
    [scrollRef, rowHeight, overscan],
  );

  const measure = useCallback(() => {
    const element = container.current;
    const scroller = scrollRef.current;
    if (!element || !scroller) return;
    layout.current = {
      offset: element.getBoundingClientRect().top - scroller.getBoundingClientRect().top + scroller.scrollTop,
      width: element.clientWidth || FALLBACK_WIDTH,
      height: scroller.clientHeight || FALLBACK_HEIGHT,
    };
    update(false);
  }, [scrollRef, update]);

  useLayoutEffect(measure, [measure, count]);

  useEffect(() => {
    const scroller = scrollRef.current;
    const element = container.current;
    if (!scroller || !element) return;
    const onScroll = () => update(true);
    scroller.addEventListener('scroll', onScroll, { passive: true });
    const resize = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    resize?.observe(scroller);
    resize?.observe(element);
    // Content above the grid that grows or shrinks moves the grid without a scroll event.
    if (scroller.firstElementChild) resize?.observe(scroller.firstElementChild);
    return () => {
      scroller.removeEventListener('scroll', onScroll);
      resize?.disconnect();
    };
  }, [scrollRef, measure, update]);

  const columns = columnsFor(view.width || FALLBACK_WIDTH, minColumnWidth, gap);
  const rows = Math.ceil(count / columns);
  const lastRow = Math.min(rows - 1, view.last);
  const rendered: ReactNode[] = [];
  for (let row = view.first; row <= lastRow; row++) {
    const cells: ReactNode[] = [];
    for (let index = row * columns; index < Math.min(count, (row + 1) * columns); index++) cells.push(renderItem(index));
    rendered.push(
      <div
        key={row}
        role="none"
        style={{
          position: 'absolute',
          top: row * rowHeight,
          left: 0,
          right: 0,
          height: rowHeight - gap,
          display: 'grid',
          gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`,
          columnGap: gap,
        }}
      >
        {cells}
      </div>,
    );
  }

  return (
    <div
      ref={container}
      role={props.role}
      aria-label={props.label}
      aria-multiselectable={props.multiselectable}
      data-columns={columns}
      className={props.className}
      style={{ position: 'relative', height: Math.max(0, rows * rowHeight - gap) }}
    >
      {rendered}
    </div>
  );
}
