import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { useAppDispatch } from '../../state/hooks';
import { resetMultiSelect, resetSelected } from '../../state/selection.slice';
import { MovePopup } from '../move/MovePopup';
import { OrganizeDialogs } from '../organize/OrganizeDialogs';
import { MultiSelectBar } from '../selection/MultiSelectBar';

/** Clears the selection on Escape (unless a dialog or menu takes it) and whenever the route changes. */
function useSelectionReset() {
  const dispatch = useAppDispatch();
  const { pathname } = useLocation();

  useEffect(() => {
    dispatch(resetSelected());
    dispatch(resetMultiSelect());
  }, [pathname, dispatch]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      if (document.querySelector('[role="dialog"], [role="menu"]')) return;
      dispatch(resetSelected());
      dispatch(resetMultiSelect());
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [dispatch]);
}

/**
 * What the file browser mounts once in the main layout: the organizing dialogs, the move popup and the
 * multi-select bar, all opened by dispatching from any page or popup.
 */
export function BrowserHost() {
  useSelectionReset();
  return (
    <>
      <OrganizeDialogs />
      <MovePopup />
      <MultiSelectBar />
    </>
  );
}
