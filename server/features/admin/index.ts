export { AdminService, type OpenReport } from './adminService.ts';
export { flagRepeatedOpener } from './moderationSignals.ts';
export { hasOpenFlag, insertFlag, statsSince } from './repository.ts';
export { statsText } from './statsText.ts';
export { AdminAccess, parseAdminEmails } from './adminAccess.ts';
export { type AdminActor } from './auditLog.ts';
export { ModerationConsole } from './moderationConsole.ts';
