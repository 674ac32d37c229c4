import type { Linter } from 'eslint';

/** See importBoundaries.js. */
export declare const importBoundaries: Linter.Config[];
