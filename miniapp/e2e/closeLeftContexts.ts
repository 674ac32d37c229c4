import { afterAll } from 'vitest';
import { closeLeftContexts } from './chromium.ts';

// A setup file of the browser project: registered before the file's own hooks, so it runs after them
// (vitest runs `afterAll` hooks last registered first).
afterAll(closeLeftContexts);
