export { isPremium } from './isPremium.ts';
export { extendedEnd } from './plans.ts';
export type { PremiumService } from './service.ts';
export type { StarsApi } from './stars.ts';
export type { YooKassaClient } from './yookassa.ts';
