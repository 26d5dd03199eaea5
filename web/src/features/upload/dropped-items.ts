import type { FolderUploadFile } from '../../api/uploads.api';

export interface DroppedItems {
  files: File[];
  /** One folder upload per dropped folder, each file with its path from that folder. */
  folders: FolderUploadFile[][];
}

function readEntries(reader: FileSystemDirectoryReader): Promise<FileSystemEntry[]> {
  return new Promise((resolve, reject) => reader.readEntries(resolve, reject));
}

function fileOf(entry: FileSystemFileEntry): Promise<File> {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

async function walk(entry: FileSystemEntry, path: string, into: FolderUploadFile[]): Promise<void> {
  if (entry.isFile) {
    into.push({ file: await fileOf(entry as FileSystemFileEntry), path: `${path}${entry.name}` });
    return;
  }
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  // readEntries answers in batches until it answers an empty one.
  for (let batch = await readEntries(reader); batch.length > 0; batch = await readEntries(reader)) {
    for (const child of batch) await walk(child, `${path}${entry.name}/`, into);
  }
}

/**
 * What was dropped: plain files, and dropped folders with the relative path of every file inside.
 * The entries are taken synchronously, while the drop event still grants access to them.
 */
export function collectDropped(dataTransfer: DataTransfer): Promise<DroppedItems> {
  const files: File[] = [];
  const directories: FileSystemEntry[] = [];
  const items = Array.from(dataTransfer.items ?? []).filter((item) => item.kind === 'file');
  if (items.length === 0) return Promise.resolve({ files: Array.from(dataTransfer.files ?? []), folders: [] });
  for (const item of items) {
    const entry = typeof item.webkitGetAsEntry === 'function' ? item.webkitGetAsEntry() : null;
    if (entry?.isDirectory) directories.push(entry);
    else {
      const file = item.getAsFile();
      if (file) files.push(file);
    }
  }
  return Promise.all(
    directories.map(async (directory) => {
      const into: FolderUploadFile[] = [];
      await walk(directory, '', into);
      return into;
    }),
  ).then((folders) => ({ files, folders: folders.filter((folder) => folder.length > 0) }));
}
