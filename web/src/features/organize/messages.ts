/** The prompts and toasts of organizing files and folders; their wording is part of the product, word for word. */
export const ORGANIZE_MESSAGES = {
  enterName: 'Please Enter a Name',
  renaming: 'Renaming...',
  renamed: 'Renamed',
  errorRenaming: 'Error Renaming',
  trashing: 'Trashing...',
  trashed: 'Trashed',
  errorTrashing: 'Error Trashing',
  deleting: 'Deleting...',
  deleted: 'Deleted',
  errorDeleting: 'Error Deleting',
  restoring: 'Restoring...',
  restored: 'Restored',
  errorRestoring: 'Error Restoring',
  movingItems: 'Moving items...',
  itemsMoved: 'Items Moved',
  errorMovingItems: 'Error Moving Items',
  movingFile: 'Moving File...',
  fileMoved: 'File Moved',
  errorMovingFile: 'Error Moving File',
  movingFolder: 'Moving Folder...',
  folderMoved: 'Folder Moved',
  errorMovingFolder: 'Error Moving Folder',
  errorCreatingFolder: 'Error Creating Folder',
} as const;

/** The confirmation questions, each with its Yes button and a cancel. */
export const CONFIRMATIONS = {
  trash: { title: 'Move to trash?', text: 'Items in the trash will eventually be deleted.' },
  deleteFile: { title: 'Delete file?', text: 'You will not be able to recover this file.' },
  deleteFolder: { title: 'Delete folder?', text: 'You will not be able to recover this folder.' },
  deleteItems: { title: 'Delete items?', text: 'You will not be able to recover these items.' },
  restoreItem: { title: 'Restore item?', text: undefined },
  restoreItems: { title: 'Restore items?', text: undefined },
} as const;
