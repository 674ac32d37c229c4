import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useStartChat } from '../api/queries/chat.ts';
import { errorText } from '../lib/errorText.ts';
import { photoUrl } from '../lib/photos.ts';
import { platform } from '../platform/index.ts';

/** "It's a match" (spec section 9): the other person's name and photo, Start chat and Close. */
export function MatchOverlay({ profile, onClose }: { profile: { id: number; name: string; photo: string | null }; onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const startChat = useStartChat();
  // On the way to the chat: the button stays disabled until it opens.
  const busy = startChat.isPending || startChat.isSuccess;
  const error = startChat.error ? errorText(t, startChat.error, 'app.errors.startChatFailed', 'app.errors.startChatError') : null;
  const photo = profile.photo?.split(',')[0];

  // Once when the overlay appears, not on every render.
  useEffect(() => platform().haptic('match'), []);
  return (
    <div className="match-overlay" role="dialog" aria-modal="true" aria-labelledby="match-title">
      <div className="match-card">
        {photo && <img className="match-photo" src={photoUrl(photo)} alt={profile.name} width={240} height={320} />}
        <h2 id="match-title">{t('app.matchOverlay.title')}</h2>
        <p>{t('app.matchOverlay.text', { name: profile.name })}</p>
        <button
          type="button"
          className="button block"
          disabled={busy}
          onClick={() => startChat.mutate(profile.id, { onSuccess: (id) => void navigate(`/chat/${id}`) })}
          autoFocus
        >
          {busy ? t('app.common.wait') : t('app.matchOverlay.startChat')}
        </button>
        <button type="button" className="button secondary block" onClick={onClose}>
          {t('app.common.close')}
        </button>
        {error && (
          <p className="error-line" role="alert">
            {error}
          </p>
        )}
      </div>
    </div>
  );
}
