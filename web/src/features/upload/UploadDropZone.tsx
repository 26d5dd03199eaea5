import { useRef, useState, type DragEvent, type ReactNode } from 'react';
import { UploadFileIcon } from '../../components/icons';
import { canAddInto } from '../item-shares/shared-access';
import { useOpenFolderAccess } from '../item-shares/useFolderAccess';
import { toast } from '../notifications/toast';
import { collectDropped } from './dropped-items';
import { useUploader } from './useUploader';

const carriesFiles = (event: DragEvent) => Array.from(event.dataTransfer?.types ?? []).includes('Files');

export const READ_ONLY_DROP = 'You can only view this shared folder';

/** The content area as a drop target: dropped files (and folders) are uploaded; the area dims while dragging. */
export function UploadDropZone({ children }: { children: ReactNode }) {
  const [dragging, setDragging] = useState(false);
  const [visible, setVisible] = useState({ top: 0, height: 0 });
  const zone = useRef<HTMLDivElement>(null);
  const depth = useRef(0);
  const { uploadFiles, uploadFolder } = useUploader();
  const readOnly = !canAddInto(useOpenFolderAccess());

  const onDragEnter = (event: DragEvent) => {
    if (!carriesFiles(event)) return;
    event.preventDefault();
    if (readOnly) return;
    depth.current += 1;
    // Dim the part of the scrolled content area that is on screen.
    const scroller = zone.current?.parentElement;
    if (scroller) setVisible({ top: scroller.scrollTop, height: scroller.clientHeight });
    setDragging(true);
  };
  const onDragOver = (event: DragEvent) => {
    if (!carriesFiles(event)) return;
    event.preventDefault();
    // Still a drop target in a read-only folder, so the browser does not open the file instead.
    event.dataTransfer.dropEffect = readOnly ? 'none' : 'copy';
  };
  const onDragLeave = () => {
    depth.current = Math.max(0, depth.current - 1);
    if (depth.current === 0) setDragging(false);
  };
  const onDrop = (event: DragEvent) => {
    if (!carriesFiles(event)) return;
    event.preventDefault();
    depth.current = 0;
    setDragging(false);
    if (readOnly) return void toast.error(READ_ONLY_DROP);
    void collectDropped(event.dataTransfer).then(({ files, folders }) => {
      if (files.length > 0) uploadFiles(files);
      folders.forEach(uploadFolder);
    });
  };

  return (
    <div
      data-testid="upload-drop-zone"
      data-dragging={dragging}
      ref={zone}
      className="relative h-full"
      onDragEnter={onDragEnter}
      onDragOver={onDragOver}
      onDragLeave={onDragLeave}
      onDrop={onDrop}
    >
      {children}
      {dragging && (
        <div
          aria-hidden="true"
          data-testid="drop-overlay"
          style={visible.height ? { top: visible.top, height: visible.height } : { top: 0, bottom: 0 }}
          className="pointer-events-none absolute inset-x-0 z-20 flex items-center justify-center bg-black/25 ring-2 ring-primary ring-inset sm:rounded-2xl"
        >
          <div className="flex items-center gap-2 rounded-full bg-primary px-5 py-3 text-sm font-medium text-white shadow-lg">
            <UploadFileIcon className="size-5" /> Drop files to upload them
          </div>
        </div>
      )}
    </div>
  );
}
