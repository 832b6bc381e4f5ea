export * from './constants.js';
export * from './errors.js';
export * from './schemas.js';
export * from './exports.js';
export * from './search.js';
export * from './billing.js';
export * from './summaries.js';
export * from './surface.js';
