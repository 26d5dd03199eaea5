import { lazy, Suspense, useEffect } from 'react';
import { useLocation } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../state/hooks';
import { resetMultiSelect, resetSelected } from '../../state/selection.slice';
import { lazyModule, useLazyModule } from '../../components/lazy-module';

// Not needed to draw a page: they load when one of them first opens.
const MovePopup = lazy(() => import('../move/MovePopup').then((m) => ({ default: m.MovePopup })));
const OrganizeDialogs = lazy(() => import('../organize/OrganizeDialogs').then((m) => ({ default: m.OrganizeDialogs })));
// Shown only in multi-select mode: it loads once the page is on screen, before anyone can select.
const multiSelectBar = lazyModule(() => import('../selection/MultiSelectBar'));

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
  const isOrganizing = useAppSelector(({ organize }) => Boolean(organize.createFolder || organize.rename || organize.confirm));
  const isMoving = useAppSelector((state) => Boolean(state.selection.moveModal.type));
  const MultiSelectBar = useLazyModule(multiSelectBar)?.MultiSelectBar;
  return (
    <>
      <Suspense fallback={null}>{isOrganizing && <OrganizeDialogs />}</Suspense>
      <Suspense fallback={null}>{isMoving && <MovePopup />}</Suspense>
      {MultiSelectBar && <MultiSelectBar />}
    </>
  );
}
