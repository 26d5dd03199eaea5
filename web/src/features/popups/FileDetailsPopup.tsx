import type { FileDto } from '@nimbus/common';
import { useRef } from 'react';
import { downloadItems } from '../../api/download';
import { Button } from '../../components/Button';
import { DownloadIcon, MoreVertIcon } from '../../components/file-icons';
import { useAppDispatch } from '../../state/hooks';
import { resetPopupSelect } from '../../state/selection.slice';
import { FileDetailsBody } from './FileDetailsBody';
import { PopupCard } from './PopupCard';
import { useSlideClose } from './useSlideClose';
import { fileItem } from '../../api/drive-items';
import { lazyModule, useLazyModule } from '../../components/lazy-module';
import { useItemMenu } from '../context-menu/useItemMenu';

/** The file's versions: below the details, so they load once the popup is on screen. */
const fileVersions = lazyModule(() => import('../versions/FileVersions'));

/** Details of a file without a preview: name, link type, size, upload date, Download, and its versions (the details panel's, for screens without it). */
export function FileDetailsPopup({ file }: { file: FileDto }) {
  const dispatch = useAppDispatch();
  const FileVersions = useLazyModule(fileVersions)?.FileVersions;
  const { closing, close } = useSlideClose(() => dispatch(resetPopupSelect()));
  const menu = useItemMenu(fileItem(file));
  const menuButton = useRef<HTMLButtonElement>(null);
  const openMenu = () => {
    const rect = menuButton.current?.getBoundingClientRect();
    menu.open({ x: rect ? rect.right - 192 : 0, y: rect ? rect.bottom + 4 : 0 });
  };

  return (
    <PopupCard
      title={file.filename}
      closing={closing}
      onClose={close}
      testId="file-details"
      headerActions={
        <button
          ref={menuButton}
          type="button"
          aria-label="File actions"
          aria-haspopup="menu"
          onClick={openMenu}
          className="flex size-10 shrink-0 items-center justify-center rounded-full text-muted hover:bg-black/5"
        >
          <MoreVertIcon className="size-6" />
        </button>
      }
    >
      <FileDetailsBody filename={file.filename} linkType={file.metadata.linkType} size={file.length} uploadDate={file.uploadDate}>
        <Button className="self-end" onClick={() => void downloadItems([{ type: 'file', id: file._id }])}>
          <DownloadIcon className="size-5" /> Download
        </Button>
      </FileDetailsBody>
      {FileVersions && (
        <div className="mt-6 border-t border-gray-100 pt-4">
          <FileVersions key={file._id} file={file} currentActions={false} />
        </div>
      )}
      {menu.element}
    </PopupCard>
  );
}
