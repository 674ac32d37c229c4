export { linkPayloadPrefix, linkTokenLifetimeSeconds, maskEmail, TelegramBotLinkService } from './botLink.ts';
export { languageFromTelegram } from './telegramIdentity.ts';
export { TelegramUserService } from './telegramUsers.ts';
