export { AdminService, type OpenReport } from './adminService.ts';
export { flagRepeatedOpener } from './moderationSignals.ts';
export { hasOpenFlag, insertFlag, statsSince } from './repository.ts';
export { statsText } from './statsText.ts';
