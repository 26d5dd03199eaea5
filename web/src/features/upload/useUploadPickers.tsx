import { useRef, type ChangeEvent } from 'react';
import { toast } from '../notifications/toast';
import { asFolderFiles } from './upload-target';
import { useUploader } from './useUploader';

export const NO_ITEMS_SELECTED = 'No items selected';

/** The hidden file inputs behind "Upload Files" and "Upload Folder", and the functions that open them. */
export function useUploadPickers() {
  const filesInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const { uploadFiles, uploadFolder } = useUploader();

  const onFiles = (event: ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(event.target.files ?? []);
    event.target.value = '';
    if (files.length > 0) uploadFiles(files);
  };

  const onFolder = (event: ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(event.target.files ?? []);
    event.target.value = '';
    if (files.length === 0) {
      toast.error(NO_ITEMS_SELECTED);
      return;
    }
    const folderFiles = asFolderFiles(files);
    if (folderFiles) uploadFolder(folderFiles);
    else uploadFiles(files);
  };

  const inputs = (
    <>
      <input
        ref={filesInput}
        type="file"
        multiple
        hidden
        aria-label="Files to upload"
        data-testid="upload-files-input"
        onChange={onFiles}
      />
      <input
        ref={(element) => {
          folderInput.current = element;
          element?.setAttribute('webkitdirectory', '');
        }}
        type="file"
        multiple
        hidden
        aria-label="Folder to upload"
        data-testid="upload-folder-input"
        onChange={onFolder}
      />
    </>
  );

  return { inputs, pickFiles: () => filesInput.current?.click(), pickFolder: () => folderInput.current?.click() };
}
