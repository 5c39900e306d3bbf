export * from './constants.js';
export * from './roles.js';
export * from './messages.js';
export * from './errors.js';
export * from './validation.js';
export * from './auth.js';
export * from './admin.js';
