/** The folder new uploads go to: the open folder on /folder/{id}, else the root. */
export function uploadParentOf(pathname: string): string {
  const match = /^\/folder\/([^/]+)/.exec(pathname);
  return match?.[1] ? decodeURIComponent(match[1]) : '/';
}

/** The picked files as a folder upload, or null when any of them lacks a relative path. */
export function asFolderFiles(files: File[]): { file: File; path: string }[] | null {
  if (files.length === 0 || files.some((file) => !file.webkitRelativePath)) return null;
  return files.map((file) => ({ file, path: file.webkitRelativePath }));
}
