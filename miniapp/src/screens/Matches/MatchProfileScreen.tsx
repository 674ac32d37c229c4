import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { markMatchOpened } from '../../api/queries/badges.ts';
import { useStartChat } from '../../api/queries/chat.ts';
import { useMatchProfile, useUnmatch } from '../../api/queries/matches.ts';
import { ConfirmSheet } from '../../components/ConfirmSheet.tsx';
import { ProfileDetails } from '../../components/ProfileDetails.tsx';
import { SafetyActions } from '../../components/SafetyActions.tsx';
import { ShareTelegram } from '../../components/ShareTelegram.tsx';
import { ErrorLine, QueryView } from '../../components/States.tsx';
import { useDeepLinkFallback } from '../../components/StartParamRedirect.tsx';
import { errorText } from '../../lib/errorText.ts';
import { useProfileIdParam } from './profileIdParam.ts';

/** `/UsersProfile/{profileId}`: a match's profile with Start chat, Unmatch (confirmed) and safety. */
export default function MatchProfileScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const profileId = useProfileIdParam();
  const profile = useMatchProfile(profileId);
  // Their profile opened: the match is no longer new (the Matches badge). Only once it is known to be theirs.
  const shown = profile.isSuccess;
  useEffect(() => {
    if (shown) void markMatchOpened(profileId).catch(() => undefined);
  }, [shown, profileId]);
  useDeepLinkFallback(profile.error);
  const [confirming, setConfirming] = useState(false);
  const startChat = useStartChat();
  const unmatch = useUnmatch();
  // Leaving for the chat or the list: the buttons stay disabled until the next screen is there.
  const busy = startChat.isPending || startChat.isSuccess || unmatch.isPending || unmatch.isSuccess;
  const error = startChat.error
    ? errorText(t, startChat.error, 'app.errors.startChatFailed', 'app.errors.startChatError')
    : unmatch.error
      ? errorText(t, unmatch.error, 'app.errors.unmatchFailed', 'app.errors.unmatchError')
      : null;

  return (
    <QueryView query={profile} failedKey="app.errors.fetchProfile" notFoundKey="app.errors.profileNotFound">
      {(person) => (
        <section className="person-screen">
          <div className="person-toolbar">
            <SafetyActions
              profileId={person.id}
              name={person.name}
              gender={person.gender}
              onDone={() => void navigate('/matches', { replace: true })}
            />
          </div>
          <ProfileDetails profile={person} />
          {/* Start chat stays in reach above the tab bar while the photos and the bio scroll under it. */}
          <div className="person-actions sticky">
            <button
              type="button"
              className="button block"
              disabled={busy}
              onClick={() => {
                unmatch.reset();
                startChat.mutate(profileId, {
                  onSuccess: (conversationId) => void navigate(`/chat/${conversationId}`),
                });
              }}
            >
              {t('app.matches.startChat')}
            </button>
          </div>
          <ShareTelegram profileId={person.id} variant="card" />
          <div className="person-actions">
            <button
              type="button"
              className="button secondary block"
              disabled={busy}
              onClick={() => setConfirming(true)}
            >
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
            onConfirm={() => {
              startChat.reset();
              unmatch.mutate(profileId, {
                onSuccess: () => void navigate('/matches', { replace: true }),
                onError: () => setConfirming(false),
              });
            }}
            onClose={() => setConfirming(false)}
          />
        </section>
      )}
    </QueryView>
  );
}
