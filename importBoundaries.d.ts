import type { Linter } from 'eslint';

/** See importBoundaries.js. */
export declare const importBoundaries: Linter.Config[];

/** The import-x resolver settings the rules need (aliases included). */
export declare const importResolverSettings: Record<string, unknown>;
