import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { PushOffer } from './PushOffer.tsx';
import { useLocation, useNavigate } from 'react-router';
import { useStartChat } from '../api/queries/chat.ts';
import { useMatchProfile } from '../api/queries/matches.ts';
import { errorText } from '../lib/errorText.ts';
import { dismissMatch, matchShown, type MatchAnnouncement } from '../lib/matchAnnouncements.ts';
import { photoUrl } from '../lib/photos.ts';
import { platform } from '../platform/index.ts';
import { genderContext } from '@locales/genderContext.ts';
import { readerGender, useSession } from '../session/SessionProvider.tsx';
import { useModalDialog } from './useModalDialog.ts';
// Its close button is the sheets' one (.sheet-close).
import './BottomSheet.css';
import './MatchOverlay.css';

/** The first of a comma-separated photo list. */
function firstPhoto(photos: string | null | undefined): string | undefined {
  return photos?.split(',')[0] || undefined;
}

/**
 * "It's a match" (spec section 9, issue 19), over whatever screen is open: both photos, "Write to her/him"
 * (the conversation), "Keep swiping" (the deck) and a close button that stays where the user is. Rendered
 * by the app shell for the first waiting announcement (lib/matchAnnouncements.ts); once on screen it is
 * marked seen on the server.
 */
export default function MatchOverlay({ match }: { match: MatchAnnouncement }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const onDeck = useLocation().pathname.toLowerCase() === '/search';
  const { session } = useSession();
  const mine = session.status === 'signedIn' ? firstPhoto(session.profile?.photo) : undefined;
  const { profile } = match;
  // "Write to her" or "him": the announcement knows the gender when it came from the deck's card;
  // otherwise the person's profile says (the neutral wording until then).
  const details = useMatchProfile(profile.id, match.gender === null);
  const gender = match.gender ?? details.data?.gender ?? null;
  const startChat = useStartChat();
  // On the way to the chat: the button stays disabled until it opens.
  const busy = startChat.isPending || startChat.isSuccess;
  const error = startChat.error
    ? errorText(t, startChat.error, 'app.errors.startChatFailed', 'app.errors.startChatError')
    : null;
  const theirs = firstPhoto(profile.photo);

  // Once when it appears, not on every render.
  useEffect(() => {
    platform().haptic('match');
    matchShown(profile.id);
  }, [profile.id]);

  // Modal: it comes over whatever the user was doing, and the focus goes back there afterwards.
  const { dialog, focus: write } = useModalDialog<HTMLButtonElement>();

  const close = () => dismissMatch(profile.id);
  return (
    <dialog ref={dialog} className="match-overlay" aria-labelledby="match-title" onClose={close}>
      <div className="match-card">
        <button type="button" className="sheet-close match-close" aria-label={t('app.common.close')} onClick={close}>
          ×
        </button>
        <div className="match-photos">
          {mine && (
            <img
              className="match-photo"
              src={photoUrl(mine)}
              alt={t('app.matchOverlay.you')}
              width={240}
              height={320}
            />
          )}
          {theirs && <img className="match-photo" src={photoUrl(theirs)} alt={profile.name} width={240} height={320} />}
        </div>
        <h2 id="match-title">{t('app.matchOverlay.title')}</h2>
        {/* Said to the reader ("Напишете первой?"): their gender, not the match's. */}
        <p>{t('app.matchOverlay.text', { name: profile.name, context: genderContext(readerGender(session)) })}</p>
        <button
          type="button"
          className="button block"
          disabled={busy}
          onClick={() =>
            startChat.mutate(profile.id, {
              onSuccess: (id) => {
                dismissMatch(profile.id);
                void navigate(`/chat/${id}`);
              },
            })
          }
          ref={write}
        >
          {busy ? t('app.common.wait') : t('app.matchOverlay.write', { context: genderContext(gender) })}
        </button>
        <button
          type="button"
          className="button secondary block"
          onClick={() => {
            close();
            if (!onDeck) void navigate('/search');
          }}
        >
          {t('app.matchOverlay.keepSwiping')}
        </button>
        <PushOffer />
        {error && (
          <p className="error-line" role="alert">
            {error}
          </p>
        )}
      </div>
    </dialog>
  );
}
