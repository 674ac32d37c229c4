import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError } from '../../api/client.ts';
import { useLikerProfile, useSwipe } from '../../api/queries/matches.ts';
import { ProfileDetails } from '../../components/ProfileDetails.tsx';
import { SafetyActions } from '../../components/SafetyActions.tsx';
import { ErrorLine, Loading, QueryView } from '../../components/States.tsx';
import { errorText } from '../../lib/errorText.ts';
import { announceMatch } from '../../lib/matchAnnouncements.ts';
import { platform } from '../../platform/index.ts';
import { useProfileIdParam } from './profileIdParam.ts';

/**
 * `/UsersProfileLiker/{profileId}` (spec section 9): someone who liked the user. Like makes a match (the
 * overlay offers a chat over the likers list), dislike goes back to /WhoLike; without premium the server answers 403 "no
 * subscribe" and the app goes to /subscription.
 */
export default function LikerProfileScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const profileId = useProfileIdParam();
  const profile = useLikerProfile(profileId);
  const swipe = useSwipe();

  // Spec section 4: a 403 saying "no subscribe" (not a ban or an unverified account) leads to the plans.
  const noSubscription =
    profile.error instanceof ApiError && profile.error.status === 403 && profile.error.code === 'no_subscribe';
  useEffect(() => {
    if (noSubscription) void navigate('/subscription', { replace: true });
  }, [noSubscription, navigate]);

  function decide(liked: boolean) {
    platform().haptic(liked ? 'like' : 'dislike');
    swipe.mutate(
      { profileId, liked },
      {
        onSuccess: (result) => {
          // A match: the app's overlay (components/LiveShell.tsx) announces it over the likers list.
          if (result.match) announceMatch(result.profile, { gender: profile.data?.gender ?? null });
          void navigate('/WhoLike', { replace: true });
        },
      },
    );
  }

  // Decided: the buttons stay disabled until the list comes back.
  const busy = swipe.isPending || swipe.isSuccess;
  const error = !swipe.error
    ? null
    : swipe.variables.liked
      ? errorText(t, swipe.error, 'app.errors.likeFailed', 'app.errors.likeError')
      : errorText(t, swipe.error, 'app.errors.dislikeFailed', 'app.errors.dislikeError');

  if (noSubscription) return <Loading />;
  return (
    <QueryView query={profile} failedKey="app.errors.likerProfile" notFoundKey="app.errors.profileNotFound">
      {(person) => (
        <section className="person-screen">
          <div className="person-toolbar">
            <SafetyActions
              profileId={person.id}
              name={person.name}
              gender={person.gender}
              onDone={() => void navigate('/WhoLike', { replace: true })}
            />
          </div>
          <ProfileDetails profile={person} />
          <div className="person-actions two sticky">
            <button type="button" className="button secondary" disabled={busy} onClick={() => decide(false)}>
              {t('app.matches.dislike')}
            </button>
            <button type="button" className="button" disabled={busy} onClick={() => decide(true)}>
              {t('app.matches.like')}
            </button>
          </div>
          <ErrorLine message={error} />
        </section>
      )}
    </QueryView>
  );
}
