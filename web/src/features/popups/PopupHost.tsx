import { UploadPanel } from '../upload/UploadPanel';

/**
 * Where the file popups (preview, details, share) and the upload panel are mounted, once, inside
 * the main layout. They open from Redux selection state (popupModal, shareModal), so any screen
 * can open them by dispatching, without importing them.
 */
export function PopupHost() {
  return <UploadPanel />;
}
