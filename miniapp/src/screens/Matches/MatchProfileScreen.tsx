import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { chatQueries } from '../../api/queries/chat.ts';
import { matchesQueries } from '../../api/queries/matches.ts';
import { useResource } from '../../api/useResource.ts';
import { ConfirmSheet } from '../../components/ConfirmSheet.tsx';
import { SafetyActions } from '../../components/SafetyActions.tsx';
import { ErrorLine, ErrorState, Loading } from '../../components/States.tsx';
import { errorText } from '../../lib/errorText.ts';
import { ProfileDetails } from './ProfileDetails.tsx';
import { useProfileIdParam } from './profileIdParam.ts';
import './Matches.css';

/** `/UsersProfile/{profileId}`: a match's profile with Start chat, Unmatch (confirmed) and safety. */
export default function MatchProfileScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const profileId = useProfileIdParam();
  const [profile, reload] = useResource(() => matchesQueries.matchProfile(profileId));
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function startChat() {
    setBusy(true);
    setError(null);
    try {
      void navigate(`/chat/${await chatQueries.start(profileId)}`);
    } catch (failure) {
      setError(errorText(t, failure, 'app.errors.startChatFailed', 'app.errors.startChatError'));
      setBusy(false);
    }
  }

  async function unmatch() {
    setBusy(true);
    setError(null);
    try {
      await matchesQueries.unmatch(profileId);
      void navigate('/matches', { replace: true });
    } catch (failure) {
      setConfirming(false);
      setError(errorText(t, failure, 'app.errors.unmatchFailed', 'app.errors.unmatchError'));
      setBusy(false);
    }
  }

  if (profile.state === 'loading') return <Loading />;
  if (profile.state === 'error')
    return <ErrorState message={errorText(t, profile.error, profile.error.status === 404 ? 'app.errors.profileNotFound' : 'app.errors.fetchProfile')} onRetry={reload} />;
  const person = profile.data;
  return (
    <section className="person-screen">
      <div className="person-toolbar">
        <SafetyActions profileId={person.id} name={person.name} onDone={() => void navigate('/matches', { replace: true })} />
      </div>
      <ProfileDetails profile={person} />
      <div className="person-actions">
        <button type="button" className="button block" disabled={busy} onClick={() => void startChat()}>
          {t('app.matches.startChat')}
        </button>
        <button type="button" className="button secondary block" disabled={busy} onClick={() => setConfirming(true)}>
          {t('app.matches.unmatch')}
        </button>
        <ErrorLine message={error} />
      </div>
      <ConfirmSheet
        open={confirming}
        title={t('app.matches.unmatchTitle', { name: person.name })}
        text={t('app.matches.unmatchText', { name: person.name })}
        confirmLabel={t('app.matches.unmatchConfirm')}
        busy={busy}
        onConfirm={() => void unmatch()}
        onClose={() => setConfirming(false)}
      />
    </section>
  );
}
