export { changeText, changeTime } from './changeText.ts';
export { AccountAlerts } from './service.ts';
