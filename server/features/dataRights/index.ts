export { eraseAccount } from './eraseAccount.ts';
