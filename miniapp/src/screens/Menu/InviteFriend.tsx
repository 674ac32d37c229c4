import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useInvitation } from '../../api/queries/referral.ts';
import { ErrorLine } from '../../components/States.tsx';
import { errorText } from '../../lib/errorText.ts';
import { platform, type ShareOutcome } from '../../platform/index.ts';

/**
 * Invite a friend (issue 21): the account's own link, through Telegram's share sheet inside Telegram
 * (a t.me link that opens the Mini App, `startapp=ref_<code>`), the browser's share sheet or the
 * clipboard on the web (the site with `?ref=<code>`). The inviter's sign-ups are counted for the admins.
 */
export function InviteFriend() {
  const { t } = useTranslation();
  const invitation = useInvitation();
  const [outcome, setOutcome] = useState<{ result: ShareOutcome; link: string } | null>(null);

  async function share() {
    setOutcome(null);
    const links = await invitation.mutateAsync().catch(() => null);
    if (!links) return;
    const inTelegram = platform().kind === 'telegram' && links.telegram_link !== null;
    const link = inTelegram && links.telegram_link ? links.telegram_link : links.web_link;
    const result = await platform().shareLink(link, t('app.invite.text'));
    setOutcome({ result, link });
  }

  return (
    <section className="card invite" aria-labelledby="invite-title">
      <h2 id="invite-title">{t('app.invite.title')}</h2>
      <p className="muted">{t('app.invite.hint')}</p>
      <button
        type="button"
        className="button block"
        data-invite
        disabled={invitation.isPending}
        onClick={() => void share()}
      >
        {t('app.invite.button')}
      </button>
      {outcome?.result === 'copied' && (
        <p className="invite-notice" role="status">
          {t('app.invite.copied')}
        </p>
      )}
      {outcome?.result === 'failed' && (
        // Neither a share sheet nor the clipboard: the link itself, selectable, to copy by hand.
        <label className="invite-manual">
          <span>{t('app.invite.copyByHand')}</span>
          <input readOnly value={outcome.link} onFocus={(e) => e.currentTarget.select()} />
        </label>
      )}
      {invitation.error && <ErrorLine message={errorText(t, invitation.error, 'app.invite.failed')} />}
    </section>
  );
}
