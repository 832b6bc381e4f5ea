export * from './plans/index.js';
export * from './format/index.js';
export * from './invites/index.js';
export * from './scores/index.js';
export * from './platforms/index.js';
