import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { MatchedProfile } from '../../../../server/contract/discovery.ts';
import { matchesQueries } from '../../api/queries/matches.ts';
import { useResource } from '../../api/useResource.ts';
import { MatchOverlay } from '../../components/MatchOverlay.tsx';
import { SafetyActions } from '../../components/SafetyActions.tsx';
import { ErrorLine, ErrorState, Loading } from '../../components/States.tsx';
import { errorText } from '../../lib/errorText.ts';
import { platform } from '../../platform/index.ts';
import { ProfileDetails } from './ProfileDetails.tsx';
import { useProfileIdParam } from './profileIdParam.ts';
import './Matches.css';

/**
 * `/UsersProfileLiker/{profileId}` (spec section 9): someone who liked the user. Like makes a match (the
 * dialog offers a chat), dislike goes back to /WhoLike; without premium the server answers 403 "no
 * subscribe" and the app goes to /subscription.
 */
export default function LikerProfileScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const profileId = useProfileIdParam();
  const [profile, reload] = useResource(() => matchesQueries.likerProfile(profileId));
  const [match, setMatch] = useState<MatchedProfile | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  // Spec section 4: a 403 saying "no subscribe" (not a ban or an unverified account) leads to the plans.
  const noSubscription = profile.state === 'error' && profile.error.status === 403 && profile.error.code === 'no_subscribe';
  useEffect(() => {
    if (noSubscription) void navigate('/subscription', { replace: true });
  }, [noSubscription, navigate]);

  async function swipe(liked: boolean) {
    setBusy(true);
    setError(null);
    try {
      platform().haptic(liked ? 'like' : 'dislike');
      const result = liked ? await matchesQueries.like(profileId) : await matchesQueries.dislike(profileId);
      if (result.match) setMatch(result.profile);
      else void navigate('/WhoLike', { replace: true });
    } catch (failure) {
      setError(liked ? errorText(t, failure, 'app.errors.likeFailed', 'app.errors.likeError') : errorText(t, failure, 'app.errors.dislikeFailed', 'app.errors.dislikeError'));
      setBusy(false);
    }
  }

  if (profile.state === 'loading' || noSubscription) return <Loading />;
  if (profile.state === 'error')
    return <ErrorState message={errorText(t, profile.error, profile.error.status === 404 ? 'app.errors.profileNotFound' : 'app.errors.likerProfile')} onRetry={reload} />;
  const person = profile.data;
  return (
    <section className="person-screen">
      <div className="person-toolbar">
        <SafetyActions profileId={person.id} name={person.name} onDone={() => void navigate('/WhoLike', { replace: true })} />
      </div>
      <ProfileDetails profile={person} />
      <div className="person-actions two">
        <button type="button" className="button secondary" disabled={busy} onClick={() => void swipe(false)}>
          {t('app.matches.dislike')}
        </button>
        <button type="button" className="button" disabled={busy} onClick={() => void swipe(true)}>
          {t('app.matches.like')}
        </button>
      </div>
      <ErrorLine message={error} />
      {match && <MatchOverlay profile={match} onClose={() => void navigate('/WhoLike', { replace: true })} />}
    </section>
  );
}
