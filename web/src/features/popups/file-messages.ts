/** The file popups' messages and toasts; their wording is part of the product, word for word. */
export const FILE_MESSAGES = {
  filenameCopied: 'Filename Copied',
  linkCopied: 'Link Copied',
  documentIsPrivate: 'Document is private',
  makingPublic: 'Making Public...',
  publicLinkGenerated: 'Public Link Generated',
  errorMakingPublic: 'Error Making Public',
  removingLink: 'Removing Link...',
  linkRemoved: 'Link Removed',
  errorRemovingLink: 'Error Removing Link',
  errorGettingVideo: 'Error getting video',
  errorLoadingImage: 'Error loading image',
  errorGettingPublicFile: 'Error getting public file',
} as const;
