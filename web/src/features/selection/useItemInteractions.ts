import { TIMINGS } from '@nimbus/common';
import { useEffect, useRef, type KeyboardEvent, type MouseEvent, type PointerEvent, type TouchEvent } from 'react';
import { useAppDispatch, useAppSelector } from '../../state/hooks';
import { setMainSelect, toggleMultiSelect, type SelectionType } from '../../state/selection.slice';
import type { DriveItem } from '../../api/drive-items';
import { itemId } from '../../api/drive-items';
import { decideClick, listClickTimer } from './click-rules';

interface Options {
  item: DriveItem;
  /** 'quick-item' for the Quick Access strip, so the same file in the list is not highlighted twice. */
  selectionType?: SelectionType;
  onOpen: () => void;
  onMenu: (at: { x: number; y: number }) => void;
}

/** Moving a finger further than this cancels a long press (it is a scroll). */
const LONG_PRESS_SLOP_PX = 10;

/** Selection, opening and context-menu gestures of one item (clicks, a second click within 1.5 s, long press, right-click). */
export function useItemInteractions({ item, selectionType = item.type, onOpen, onMenu }: Options) {
  const dispatch = useAppDispatch();
  const id = itemId(item);
  const isSelected = useAppSelector((state) => state.selection.mainSection.id === id && state.selection.mainSection.type === selectionType);
  const isMultiSelected = useAppSelector(
    (state) => state.selection.multiSelectMode && state.selection.multiSelectMap[id]?.type === item.type,
  );
  const multiSelectMode = useAppSelector((state) => state.selection.multiSelectMode);
  const singleClickFolders = useAppSelector((state) => state.general.singleClickFolders);
  const pointerType = useRef('mouse');
  const press = useRef<{ timer: ReturnType<typeof setTimeout> | null; x: number; y: number; fired: boolean }>({
    timer: null,
    x: 0,
    y: 0,
    fired: false,
  });

  useEffect(() => () => clearTimeout(press.current.timer ?? undefined), []);

  const key = `${selectionType}:${id}`;
  const select = () => {
    dispatch(
      setMainSelect(
        item.type === 'file'
          ? { type: selectionType, id, file: item.file, folder: null }
          : { type: selectionType, id, file: null, folder: item.folder },
      ),
    );
  };

  const onClick = (event: MouseEvent) => {
    event.stopPropagation();
    if (press.current.fired) {
      press.current.fired = false;
      return;
    }
    const outcome = decideClick({
      kind: item.type,
      isSelected,
      msSinceLastClick: listClickTimer.since(key),
      multiSelectMode,
      withModifier: event.ctrlKey || event.metaKey,
      isTouch: pointerType.current === 'touch',
      singleClickFolders,
    });
    if (outcome === 'toggle') {
      dispatch(toggleMultiSelect([{ id, type: item.type }]));
    } else if (outcome === 'open') {
      listClickTimer.reset();
      onOpen();
    } else {
      if (outcome === 'select') select();
      listClickTimer.record(key);
    }
  };

  const cancelPress = () => {
    clearTimeout(press.current.timer ?? undefined);
    press.current.timer = null;
  };

  return {
    isSelected,
    isMultiSelected,
    handlers: {
      onClick,
      onPointerDown: (event: PointerEvent) => {
        pointerType.current = event.pointerType || 'mouse';
        if (pointerType.current !== 'touch') press.current.fired = false;
      },
      onContextMenu: (event: MouseEvent) => {
        event.preventDefault();
        event.stopPropagation();
        // A long press already opened the menu; the browser's own contextmenu for it is ignored.
        if (press.current.fired) return;
        onMenu({ x: event.clientX, y: event.clientY });
      },
      onTouchStart: (event: TouchEvent) => {
        const touch = event.touches[0];
        if (!touch || event.touches.length > 1) return cancelPress();
        cancelPress();
        press.current = { timer: null, x: touch.clientX, y: touch.clientY, fired: false };
        press.current.timer = setTimeout(() => {
          press.current.timer = null;
          press.current.fired = true;
          onMenu({ x: press.current.x, y: press.current.y });
        }, TIMINGS.longPressMs);
      },
      onTouchMove: (event: TouchEvent) => {
        const touch = event.touches[0];
        if (!touch) return;
        if (Math.hypot(touch.clientX - press.current.x, touch.clientY - press.current.y) > LONG_PRESS_SLOP_PX) cancelPress();
      },
      onTouchEnd: (event: TouchEvent) => {
        cancelPress();
        // After a long press the finger's release must not also select or open the item.
        if (press.current.fired && event.cancelable) event.preventDefault();
      },
      onTouchCancel: cancelPress,
      onKeyDown: (event: KeyboardEvent) => {
        if (event.target !== event.currentTarget) return;
        if (event.key === 'Enter') {
          event.preventDefault();
          onOpen();
        } else if (event.key === ' ') {
          event.preventDefault();
          if (event.ctrlKey || event.metaKey || multiSelectMode) dispatch(toggleMultiSelect([{ id, type: item.type }]));
          else select();
        } else if (event.key === 'ContextMenu' || (event.shiftKey && event.key === 'F10')) {
          event.preventDefault();
          const rect = event.currentTarget.getBoundingClientRect();
          onMenu({ x: rect.left + 16, y: rect.top + 16 });
        }
      },
    },
  };
}
