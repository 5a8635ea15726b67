/** Shared helpers of the end-to-end HTTP tests. */
export * from './server';
export * from './expect';
export * from './fixtures';
export * from './log';
export * from './samples';
