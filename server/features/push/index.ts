export { defaultPushEndpointOrigins, isAllowedEndpoint, pushEndpointOrigins } from './endpoints.ts';
export { PushService, type WebPushSettings } from './service.ts';
export { type PushOutcome, PushRetryableError, WebPushSender } from './sender.ts';
