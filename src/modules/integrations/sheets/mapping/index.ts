export * from './a1.js';
export * from './cells.js';
export * from './resolve.js';
export * from './row.js';
export * from './batch.js';
export * from './upsert.js';
