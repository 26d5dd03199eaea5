import { TIMINGS } from '@nimbus/common';

/** What a click on an item in a list does: toggle it in a multi-selection, select it, open it, or keep things as they are. */
export type ClickOutcome = 'toggle' | 'select' | 'open' | 'keep';

export interface ClickInput {
  kind: 'file' | 'folder';
  /** The item is the current main selection. */
  isSelected: boolean;
  /** Milliseconds since the previous click on this same item, null when the previous click was elsewhere. */
  msSinceLastClick: number | null;
  multiSelectMode: boolean;
  /** Ctrl or Meta held. */
  withModifier: boolean;
  /** The click came from a touch screen. */
  isTouch: boolean;
  singleClickFolders: boolean;
}

export function decideClick(input: ClickInput): ClickOutcome {
  if (input.withModifier || input.multiSelectMode) return 'toggle';
  if (input.kind === 'folder' && input.singleClickFolders) return 'open';
  if (!input.isSelected) return 'select';
  if (input.kind === 'file' && input.isTouch) return 'open';
  if (input.msSinceLastClick !== null && input.msSinceLastClick < TIMINGS.doubleClickMs) return 'open';
  return 'keep';
}

/** Remembers the last clicked item and when, for the second-click-within-1,500-ms rule. */
export function createClickTimer(now: () => number = () => Date.now()) {
  let last: { key: string; at: number } | null = null;
  return {
    /** Milliseconds since `key` was last clicked, if it was the most recent click. */
    since(key: string): number | null {
      return last && last.key === key ? now() - last.at : null;
    },
    record(key: string): void {
      last = { key, at: now() };
    },
    reset(): void {
      last = null;
    },
  };
}

export type ClickTimer = ReturnType<typeof createClickTimer>;

/** The one timer of the file lists (only one item can be "clicked last"). */
export const listClickTimer = createClickTimer();
