import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PublicConfig } from '../../../server/contract/config.ts';
import { loadPublicConfig } from '../api/queries/config.ts';
import { sessionQueries } from '../api/queries/session.ts';
import { errorText } from '../lib/errorText.ts';
import { platform } from '../platform/index.ts';

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
 * The Google button and Telegram's login widget on the web sign-in screens, each only when the server is
 * configured for it (`GET /api/config`). Inside Telegram the init data sign the user in instead.
 */
export function ExternalSignIn({ onSignedIn, onError }: { onSignedIn: () => void; onError: (message: string) => void }) {
  const { t, i18n } = useTranslation();
  const [config, setConfig] = useState<PublicConfig | null>(null);
  const googleRef = useRef<HTMLDivElement>(null);
  const widgetRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (platform().kind === 'web') void loadPublicConfig().then(setConfig);
  }, []);

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
            sessionQueries.googleLogin(credential).then(onSignedIn, (error: unknown) => {
              onError(errorText(t, error, 'app.errors.googleLoginFailed'));
            });
          },
        });
        id.renderButton(element, { theme: 'outline', size: 'large', shape: 'pill', width: 300, locale: i18n.language });
      })
      .catch(() => onError(t('app.errors.googleLoginError')));
  }, [config, i18n.language, onError, onSignedIn, t]);

  useEffect(() => {
    const bot = config?.bot_username;
    const element = widgetRef.current;
    if (!bot || !element) return;
    element.replaceChildren();
    void loadScript(
      'https://telegram.org/js/telegram-widget.js?22',
      { 'data-telegram-login': bot, 'data-size': 'large', 'data-radius': '20', 'data-auth-url': '/api/auth', 'data-request-access': 'write' },
      element,
    ).catch(() => undefined);
  }, [config]);

  if (!config?.google_client_id && !config?.bot_username) return null;
  return (
    <div className="external-signin">
      <p className="divider">
        <span>{t('app.auth.or')}</span>
      </p>
      {config.google_client_id && <div ref={googleRef} className="google-button" />}
      {config.bot_username && <div ref={widgetRef} className="telegram-widget" />}
    </div>
  );
}
