export { UsernameShareService, usernameSwapFor } from './service.ts';
