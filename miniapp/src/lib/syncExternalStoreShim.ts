/**
 * What `use-sync-external-store/shim` is on React 18 and later: React's own hook (the package's shim
 * picks `React.useSyncExternalStore` when it exists, and carries its React 17 fallback on every page).
 * react-i18next imports the shim; vite.config.ts points it here, 0.6 kB off the entry (issue 41).
 */
export { useSyncExternalStore } from 'react';
