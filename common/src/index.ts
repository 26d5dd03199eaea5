export * from './limits.js';
export * from './validation.js';
export * from './errors.js';
export * from './api/users.js';
export * from './storage-keys.js';
export * from './messages.js';
export * from './api/files.js';
export * from './api/folders.js';
