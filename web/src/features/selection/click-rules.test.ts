import { describe, expect, it } from 'vitest';
import { createClickTimer, decideClick, type ClickInput } from './click-rules';

const base: ClickInput = {
  kind: 'file',
  isSelected: false,
  msSinceLastClick: null,
  multiSelectMode: false,
  withModifier: false,
  isTouch: false,
  singleClickFolders: false,
};
const click = (input: Partial<ClickInput>) => decideClick({ ...base, ...input });

describe('clicks on items', () => {
  it('a first click selects a file or a folder', () => {
    expect(click({ kind: 'file' })).toBe('select');
    expect(click({ kind: 'folder' })).toBe('select');
  });

  it('a second click on the selected item within 1,500 ms opens it', () => {
    expect(click({ isSelected: true, msSinceLastClick: 300 })).toBe('open');
    expect(click({ kind: 'folder', isSelected: true, msSinceLastClick: 1499 })).toBe('open');
  });

  it('a second click after 1,500 ms keeps it selected and starts the window again', () => {
    expect(click({ isSelected: true, msSinceLastClick: 1500 })).toBe('keep');
    expect(click({ kind: 'folder', isSelected: true, msSinceLastClick: 5000 })).toBe('keep');
    expect(click({ isSelected: true, msSinceLastClick: null })).toBe('keep');
  });

  it('with "Single click to enter folders" a folder opens at once; files still need two clicks', () => {
    expect(click({ kind: 'folder', singleClickFolders: true })).toBe('open');
    expect(click({ kind: 'file', singleClickFolders: true })).toBe('select');
  });

  it('on touch a selected file opens at once; a selected folder still needs the second tap in time', () => {
    expect(click({ isTouch: true })).toBe('select');
    expect(click({ isTouch: true, isSelected: true, msSinceLastClick: 9000 })).toBe('open');
    expect(click({ kind: 'folder', isTouch: true, isSelected: true, msSinceLastClick: 9000 })).toBe('keep');
    expect(click({ kind: 'folder', isTouch: true, isSelected: true, msSinceLastClick: 200 })).toBe('open');
  });

  it('Ctrl/Meta, or any click in multi-select mode, toggles membership instead', () => {
    expect(click({ withModifier: true })).toBe('toggle');
    expect(click({ withModifier: true, isSelected: true, msSinceLastClick: 100 })).toBe('toggle');
    expect(click({ multiSelectMode: true, kind: 'folder', singleClickFolders: true })).toBe('toggle');
    expect(click({ multiSelectMode: true, isTouch: true, isSelected: true })).toBe('toggle');
  });
});

describe('the click timer', () => {
  it('measures only repeated clicks on the same item', () => {
    let now = 1000;
    const timer = createClickTimer(() => now);
    expect(timer.since('file:a')).toBeNull();
    timer.record('file:a');
    now += 700;
    expect(timer.since('file:a')).toBe(700);
    expect(timer.since('folder:a')).toBeNull();
    timer.record('file:b');
    expect(timer.since('file:a')).toBeNull();
    timer.reset();
    expect(timer.since('file:b')).toBeNull();
  });
});
