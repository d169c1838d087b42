/** Coverage of the bootstrap intervals on a user's own design (simulated from known rates). */
export * from './coverage.js';
export * from './figure.js';
export * from './table.js';
