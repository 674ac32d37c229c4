import { useEffect, useRef } from 'react';
import type { CurrentUserResponse } from '@contract/accounts.ts';
import { useTranslation } from 'react-i18next';
import { usePublicConfig } from '../api/queries/config.ts';
import { useGoogleLogin, useTelegramWidgetLogin } from '../api/queries/session.ts';
import { errorText } from '../lib/errorText.ts';
import { platform } from '../platform/index.ts';
import { askTelegramLogin, preloadTelegramLogin } from '../platform/telegramLogin.ts';
import './ExternalSignIn.css';

interface GoogleId {
  initialize(options: { client_id: string; callback: (response: { credential: string }) => void }): void;
  renderButton(element: HTMLElement, options: Record<string, string | number>): void;
}
declare global {
  interface Window {
    google?: { accounts: { id: GoogleId } };
  }
}

function loadScript(src: string, attributes: Record<string, string> = {}, parent: HTMLElement = document.head) {
  return new Promise<void>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.async = true;
    for (const [name, value] of Object.entries(attributes)) script.setAttribute(name, value);
    script.onload = () => resolve();
    script.onerror = () => reject(new Error(`${src} not loaded`));
    parent.append(script);
  });
}

/**
 * The Google button and Telegram's login (platform/telegramLogin.ts) on the web sign-in screens, each only when the server is
 * configured for it (`GET /api/config`). Inside Telegram the init data sign the user in instead.
 * `onSignedIn` gets the user the sign-in answered (what `GET /api/current_user` would give).
 */
export function ExternalSignIn({
  onSignedIn,
  onError,
}: {
  onSignedIn: (user: CurrentUserResponse) => void;
  onError: (message: string) => void;
}) {
  const { t, i18n } = useTranslation();
  const config = usePublicConfig(platform().kind === 'web');
  const googleRef = useRef<HTMLDivElement>(null);
  const { mutate: googleLogin } = useGoogleLogin();
  const telegramLogin = useTelegramWidgetLogin();

  useEffect(() => {
    const clientId = config?.google_client_id;
    const element = googleRef.current;
    if (!clientId || !element) return;
    loadScript('https://accounts.google.com/gsi/client')
      .then(() => {
        const id = window.google?.accounts.id;
        if (!id) return;
        id.initialize({
          client_id: clientId,
          callback: ({ credential }) => {
            googleLogin(credential, {
              onSuccess: (answer) => onSignedIn(answer.current_user),
              onError: (error) =>
                onError(errorText(t, error, 'app.errors.googleLoginFailed', 'app.errors.googleLoginError')),
            });
          },
        });
        id.renderButton(element, { theme: 'outline', size: 'large', shape: 'pill', width: 300, locale: i18n.language });
      })
      .catch(() => onError(t('app.errors.googleLoginError')));
  }, [config, googleLogin, i18n.language, onError, onSignedIn, t]);

  // Shown only when the operator named the bot (BOT_USERNAME: its domain is set up for the widget).
  const telegramBotId = (config?.bot_username && config.telegram_bot_id) || null;
  useEffect(() => {
    if (telegramBotId) preloadTelegramLogin().catch(() => undefined);
  }, [telegramBotId]);

  const busy = telegramLogin.isPending;
  const signInWithTelegram = () => {
    if (!telegramBotId || busy) return;
    // Not busy while Telegram's window is open: a blocked popup never answers, and the button must stay
    // usable for another try. Busy only while our own sign-in call runs.
    askTelegramLogin(telegramBotId, i18n.language)
      .then((signed) => {
        // Closing Telegram's window is a change of mind, not an error.
        if (!signed) return;
        telegramLogin.mutate(signed, {
          onSuccess: (answer) => onSignedIn(answer.current_user),
          onError: (error) => onError(errorText(t, error, 'app.errors.telegramLoginError')),
        });
      })
      .catch((error: unknown) => onError(errorText(t, error, 'app.errors.telegramLoginError')));
  };

  if (!config?.google_client_id && !telegramBotId) return null;
  return (
    <div className="external-signin">
      <p className="divider">
        <span>{t('app.auth.or')}</span>
      </p>
      {config?.google_client_id && <div ref={googleRef} className="google-button" />}
      {telegramBotId !== null && (
        <button type="button" className="telegram-login" onClick={signInWithTelegram} disabled={busy}>
          <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
            <path
              fill="currentColor"
              d="M21.4 4.2 18.3 19c-.2 1-.8 1.3-1.7.8l-4.6-3.4-2.2 2.1c-.2.2-.5.5-1 .5l.3-4.7 8.6-7.8c.4-.3-.1-.5-.6-.2L6.5 13 2 11.6c-1-.3-1-1 .2-1.5L20 3.2c.8-.3 1.6.2 1.4 1Z"
            />
          </svg>
          {t('app.auth.telegram')}
        </button>
      )}
    </div>
  );
}
