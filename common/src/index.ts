export * from './limits.js';
export * from './validation.js';
export * from './errors.js';
export * from './api/users.js';
