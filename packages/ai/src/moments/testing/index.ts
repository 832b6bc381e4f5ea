// Test fixtures for moment finding, shared with the server's tests (`@moments/ai/moments/testing`).
export * from './corpus';
export * from './expectations';
export * from './planted';
export * from './synthetic-transcript';
