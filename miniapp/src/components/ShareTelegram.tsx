import type { MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useMatchProfile } from '../api/queries/matches.ts';
import { useUsernameShare } from '../api/queries/usernameShare.ts';
import { errorText } from '../lib/errorText.ts';
import { platform } from '../platform/platform.ts';
import { ErrorLine } from './States.tsx';
import './ShareTelegram.css';

/**
 * "Share my Telegram" with a match (issue 39), on their profile (`card`) and in the chat's ⋯ menu (`menu`).
 * Each side agrees on its own; once both have, each sees the other's @username and a link to write to them
 * in Telegram. Someone without a Telegram username is told how to get one.
 */
export function ShareTelegram({ profileId, variant }: { profileId: number; variant: 'card' | 'menu' }) {
  const { t } = useTranslation();
  const profile = useMatchProfile(profileId);
  const share = useUsernameShare(profileId);
  const person = profile.data;
  const state = person?.username_share;
  if (!person || !state) return null;
  const { name } = person;
  const username = person.telegram_username ?? null;
  const error = share.error ? errorText(t, share.error, 'app.usernameShare.failed') : null;
  const url = username ? `https://t.me/${encodeURIComponent(username)}` : null;
  // Inside Telegram the chat opens in Telegram itself; on the web, a new tab (the t.me page hands over to the app).
  const openInTelegram = (event: MouseEvent<HTMLAnchorElement>) => {
    if (!url || platform().kind !== 'telegram') return;
    event.preventDefault();
    platform().openTelegramLink(url);
  };

  let text: string;
  if (state.mine && state.theirs)
    text = username ? t('app.usernameShare.swapped') : t('app.usernameShare.theirMissing', { name });
  else if (!state.can_share && !state.mine) text = t('app.usernameShare.noUsername');
  else if (state.mine) text = t('app.usernameShare.waiting', { name });
  else if (state.theirs) text = t('app.usernameShare.theyShared', { name });
  else text = t('app.usernameShare.intro', { name });

  return (
    <section
      className={`share-telegram ${variant === 'card' ? 'card' : 'in-menu'}`}
      aria-label={t('app.usernameShare.title')}
    >
      {variant === 'card' && <h2>{t('app.usernameShare.title')}</h2>}
      <p className="muted" role="status">
        {text}
      </p>
      {url && username && (
        <a className="button block telegram-link" href={url} target="_blank" rel="noreferrer" onClick={openInTelegram}>
          {t('app.usernameShare.open', { username })}
        </a>
      )}
      {state.mine ? (
        <button
          type="button"
          className="button secondary block"
          disabled={share.isPending}
          onClick={() => share.mutate(false)}
        >
          {t('app.usernameShare.revoke')}
        </button>
      ) : (
        state.can_share && (
          <button
            type="button"
            className={`button block${url ? ' secondary' : ''}`}
            disabled={share.isPending}
            onClick={() => share.mutate(true)}
          >
            {t('app.usernameShare.share')}
          </button>
        )
      )}
      <ErrorLine message={error} />
    </section>
  );
}
