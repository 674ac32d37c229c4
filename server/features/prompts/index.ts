export { listPrompts, presentPrompts, storedPrompts } from './catalog.ts';
