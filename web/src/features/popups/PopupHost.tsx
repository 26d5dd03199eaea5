import { useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '../../state/hooks';
import { resetMoveModal, resetPopupSelect, resetShareSelected } from '../../state/selection.slice';
import { FilePreviewPopup } from '../preview/FilePreviewPopup';
import { hasPreview } from '../preview/preview-siblings';
import { SharePopup } from '../sharing/SharePopup';
import { ResumeOffers } from '../upload/ResumeOffers';
import { UploadPanel } from '../upload/UploadPanel';
import { FileDetailsPopup } from './FileDetailsPopup';
import { usePopupFileSync } from './usePopupFileSync';
import { usePopupHistory } from './usePopupHistory';

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
      {popupFile &&
        !shareFile &&
        (hasPreview(popupFile) ? <FilePreviewPopup file={popupFile} /> : <FileDetailsPopup key={popupFile._id} file={popupFile} />)}
      {shareFile && <SharePopup key={shareFile._id} file={shareFile} />}
      <UploadPanel />
      <ResumeOffers />
    </>
  );
}
