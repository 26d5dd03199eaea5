import { lazy, Suspense, useEffect, useState } from 'react';
import { lazyModule, useLazyModule } from '../../components/lazy-module';
import { useAppDispatch, useAppSelector } from '../../state/hooks';
import { resetMoveModal, resetPopupSelect, resetShareSelected } from '../../state/selection.slice';
import { hasPreview } from '../preview/preview-siblings';
import { usePopupFileSync } from './usePopupFileSync';
import { usePopupHistory } from './usePopupHistory';

// Not needed to draw a page: each loads when it first opens.
const FilePreviewPopup = lazy(() => import('../preview/FilePreviewPopup').then((m) => ({ default: m.FilePreviewPopup })));
const FileDetailsPopup = lazy(() => import('./FileDetailsPopup').then((m) => ({ default: m.FileDetailsPopup })));
const SharePopup = lazy(() => import('../sharing/SharePopup').then((m) => ({ default: m.SharePopup })));
const UploadPanel = lazy(() => import('../upload/UploadPanel').then((m) => ({ default: m.UploadPanel })));
// Offers to resume interrupted uploads: it looks once the page is on screen.
const resumeOffers = lazyModule(() => import('../upload/ResumeOffers'));

/** The upload panel, loaded with the first upload and then kept mounted (it remembers being minimized). */
function UploadPanelHost() {
  const hasUploads = useAppSelector((state) => state.upload.uploads.length > 0);
  const [needed, setNeeded] = useState(hasUploads);
  if (hasUploads && !needed) setNeeded(true);
  return needed ? <UploadPanel /> : null;
}

/**
 * Where the file popups (preview, details, share) and the upload panel are mounted, once, inside
 * the main layout. They open from Redux selection state (popupModal, shareModal), so any screen
 * can open them by dispatching, without importing them.
 */
export function PopupHost() {
  const dispatch = useAppDispatch();
  const popupFile = useAppSelector((state) => state.selection.popupModal.file);
  const shareFile = useAppSelector((state) => state.selection.shareModal.file);
  const shareId = shareFile?._id;
  const ResumeOffers = useLazyModule(resumeOffers)?.ResumeOffers;

  // Opening the share popup closes any other popup.
  useEffect(() => {
    if (!shareId) return;
    dispatch(resetPopupSelect());
    dispatch(resetMoveModal());
  }, [shareId, dispatch]);

  usePopupFileSync();
  usePopupHistory(Boolean(popupFile || shareFile), () => {
    dispatch(resetPopupSelect());
    dispatch(resetShareSelected());
  });

  return (
    <>
      <Suspense fallback={null}>
        {popupFile &&
          !shareFile &&
          (hasPreview(popupFile) ? <FilePreviewPopup file={popupFile} /> : <FileDetailsPopup key={popupFile._id} file={popupFile} />)}
      </Suspense>
      <Suspense fallback={null}>{shareFile && <SharePopup key={shareFile._id} file={shareFile} />}</Suspense>
      <Suspense fallback={null}>
        <UploadPanelHost />
      </Suspense>
      {ResumeOffers && <ResumeOffers />}
    </>
  );
}
