/**
 * Telegram's Login Widget on the web site, through the widget script's own JS API (`Telegram.Login.auth`)
 * behind our button. The ready-made widget button would either redirect the browser with a GET to
 * `data-auth-url` (our `POST /api/auth` keeps its CSRF check) or run the `data-onauth` text as code, which
 * the Content-Security-Policy (no 'unsafe-eval') rightly forbids. The API opens Telegram's confirmation
 * window and hands back the signed user object, or false when the person closes it.
 */
export const telegramWidgetScript = 'https://telegram.org/js/telegram-widget.js?22';

export type SignedTelegramUser = Record<string, string | number>;

interface TelegramLoginApi {
  auth(
    options: { bot_id: number; request_access?: 'write'; lang?: string },
    callback: (user: SignedTelegramUser | false) => void,
  ): void;
}

function loginApi(): TelegramLoginApi | undefined {
  return (window as unknown as { Telegram?: { Login?: TelegramLoginApi } }).Telegram?.Login;
}

let loading: Promise<void> | undefined;

/** Loads the widget script once, ahead of the tap: browsers only allow the popup straight from a tap. */
export function preloadTelegramLogin(): Promise<void> {
  loading ??= new Promise<void>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = telegramWidgetScript;
    script.async = true;
    script.onload = () => resolve();
    script.onerror = () => {
      loading = undefined;
      reject(new Error('Telegram login script not loaded'));
    };
    document.head.append(script);
  });
  return loading;
}

/** Asks Telegram who this is: the signed user, or null when they closed the window. */
export async function askTelegramLogin(botId: number, language: string): Promise<SignedTelegramUser | null> {
  // Loaded already in the usual case; a failed early load is tried again here (still within the tap's
  // user activation, which allows the popup).
  if (!loginApi()) await preloadTelegramLogin();
  const api = loginApi();
  if (!api) throw new Error('Telegram login script not loaded');
  return new Promise((resolve) => {
    api.auth({ bot_id: botId, request_access: 'write', lang: language }, (user) => resolve(user || null));
  });
}
