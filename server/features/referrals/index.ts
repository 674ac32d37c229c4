export { signUpsPerCode } from './repository.ts';
export { referralFromStartParam } from './service.ts';
