import type { Permission } from '../../api/sharing.api';

/** The Permission choices in their order, with their helper texts; the wording is part of the product, word for word. */
export const PERMISSIONS: { value: Permission; label: string; help: string }[] = [
  { value: 'private', label: 'Private', help: 'Only you can view and download this file' },
  { value: 'public', label: 'Public', help: 'Anyone with the link can view and download this file' },
  {
    value: 'one',
    label: 'Temporary',
    help: 'This file will be available for download one time, after it is downloaded once the file will then automatically be marked as private.',
  },
];
