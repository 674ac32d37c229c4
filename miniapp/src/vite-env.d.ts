/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** "1" builds the fake Telegram environment into the bundle (development and tests only). */
  readonly VITE_TELEGRAM_MOCK?: string;
  readonly VITE_TELEGRAM_MOCK_BOT_TOKEN?: string;
}
