export { TelegramPhotoService } from './service.ts';
