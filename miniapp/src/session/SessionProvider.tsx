import {
  createContext,
  startTransition,
  use,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import type { CurrentUserResponse } from '@contract/accounts.ts';
import type { UserProfileSummary } from '@contract/profiles.ts';
import { cacheCurrentUser, forgetPrivateData } from '../api/sessionCache.ts';
import { nextSessionGeneration } from '../api/sessionGeneration.ts';
import { readStored, storageKeys, writeStored } from '../lib/storage.ts';
import type { LaunchFailure } from '../platform/index.ts';
import { speakAccountLanguage } from './accountLanguage.ts';
import { signInByTelegramLaunch, telegramLaunchFailure } from './telegramSignIn.ts';

/** The four session states of spec section 4, plus loading before the first answer. */
export type Session =
  | { status: 'loading' }
  /**
   * `unconfirmed`: the check failed (network, restart); the visitor may well be signed in, so stay put.
   * `launchFailure`: inside Telegram, why the launch data did not sign the user in (the reopen screen).
   */
  | { status: 'anonymous'; unconfirmed?: true; launchFailure?: LaunchFailure }
  | {
      status: 'signedIn';
      userId: number | null;
      verified: boolean;
      profile: UserProfileSummary | null;
      /** Signed in by a stored jwtToken (Telegram, token page) rather than the cookie. */
      tokenOnly: boolean;
    };

/**
 * The signed-in reader's own gender (their profile's), for sentences addressed to them ("напишите
 * первой"); null before there is a profile, when the neutral wording is used.
 */
export function readerGender(session: Session): UserProfileSummary['gender'] | null {
  return session.status === 'signedIn' ? (session.profile?.gender ?? null) : null;
}

interface SessionContextValue {
  session: Session;
  /**
   * Fetches the current user again (after sign-out, verification). `alongside` (a navigation) is applied in
   * the same render as the new session, so no screen ever sees one without the other; overtaken by a newer
   * check, it is applied with that one's answer.
   */
  refresh: (alongside?: () => void) => Promise<Session>;
  /**
   * Takes the current user from an answer that carries it (a sign-in, a profile saved: the server's
   * `current_user`, what `GET /api/current_user` would give now), instead of asking for it again.
   */
  adopt: (user: CurrentUserResponse, alongside?: () => void) => Session;
}

const SessionContext = createContext<SessionContextValue | null>(null);

async function fetchSession(): Promise<{ session: Session; user: CurrentUserResponse }> {
  // Loaded after the first paint: the API client and the contract (zod) are not needed to draw the landing.
  const { fetchCurrentUser } = await import('../api/queries/session.ts');
  // The token this request carries, read before it goes: one stored while it is under way (the token
  // page) must not be judged, and forgotten, by an answer to a request sent without it.
  const sent = readStored(storageKeys.jwtToken);
  // Fetched directly, not through the cache's own fetching: that would hand a check started later the
  // answer to one already under way (sent without the token just stored, or before the sign-in just made).
  const user = await fetchCurrentUser();
  // A stored token the server no longer accepts (logged out elsewhere, expired): forget it.
  if (!user.authorized && sent !== null && readStored(storageKeys.jwtToken) === sent)
    writeStored(storageKeys.jwtToken, null);
  await speakAccountLanguage(user);
  return { session: sessionOf(user, sent !== null), user };
}

/** The session a current-user answer describes; `tokenOnly`: it came with a stored token. */
function sessionOf(user: CurrentUserResponse, tokenOnly: boolean): Session {
  const launchFailure = telegramLaunchFailure();
  if (!user.authorized) return launchFailure ? { status: 'anonymous', launchFailure } : { status: 'anonymous' };
  return {
    status: 'signedIn',
    userId: user.user_id,
    verified: user.user_verified,
    profile: user.user_verified ? user.userprofile : null,
    tokenOnly,
  };
}

/** Whose data the cache holds: a signed-in user with (or without) a profile, or nobody. */
function identity(session: Session): string | null {
  if (session.status === 'loading') return null;
  if (session.status === 'anonymous') return session.unconfirmed ? null : 'anonymous';
  return `${session.userId ?? '?'}:${session.profile?.id ?? 'none'}`;
}

/**
 * The member whose app this is, or null: a signed-in user with a profile, or a Telegram or token session
 * (which finds a missing profile through the deck). Members get the tab bar and the live connection;
 * the key changes, and the connection restarts, for someone else.
 */
export function memberKey(session: Session): string | null {
  if (session.status !== 'signedIn' || (session.profile === null && !session.tokenOnly)) return null;
  return identity(session);
}

/**
 * Someone else now (signed out, another account) or a profile created or deleted: nothing cached for
 * before may be shown. Called before the new session is set, so no screen renders it with the old data.
 */
function forgetOtherSessionData(previous: Session, next: Session): void {
  const before = identity(previous);
  const after = identity(next);
  if (before === null || after === null || before === after) return;
  nextSessionGeneration();
  forgetPrivateData();
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState<Session>({ status: 'loading' });
  const current = useRef(session);
  useEffect(() => {
    current.current = session;
  }, [session]);

  // Only the newest check or answer may set the session: an older answer arriving late (a 401's refetch
  // racing a sign-in) must not undo it.
  const latest = useRef(0);
  // What a check asked to do with its answer (the sign-out's way home) is not lost when a newer check
  // overtakes it (a 401 of a call still on its way at the sign-out asks again): the newest answer does it.
  const carried = useRef<(() => void) | undefined>(undefined);
  const apply = useCallback((next: Session, user: CurrentUserResponse, alongside?: () => void) => {
    forgetOtherSessionData(current.current, next);
    // Kept in the cache too, for what reads it outside React (the live events need the own profile id).
    cacheCurrentUser(user);
    if (alongside) {
      // React Router navigates in a transition; the session must change in that same transition.
      startTransition(() => {
        alongside();
        setSession(next);
      });
    } else setSession(next);
    // Read by the next apply before React has rendered this one (an adopt right after a refresh).
    current.current = next;
  }, []);

  const adopt = useCallback(
    (user: CurrentUserResponse, alongside?: () => void) => {
      ++latest.current;
      // An answer that signs someone in goes its own way, not where an overtaken check was going.
      carried.current = undefined;
      // A sign-in on this device: the account may speak the other language (the sign-in forms' own switch
      // is this device's; the account's choice wins). Not awaited: the answer is applied as it came.
      void speakAccountLanguage(user);
      const next = sessionOf(user, readStored(storageKeys.jwtToken) !== null);
      apply(next, user, alongside);
      return next;
    },
    [apply],
  );

  const refresh = useCallback(
    async (alongside?: () => void) => {
      const ticket = ++latest.current;
      if (alongside) carried.current = alongside;
      try {
        const { session: next, user } = await fetchSession();
        if (ticket !== latest.current) return next;
        const then = carried.current;
        carried.current = undefined;
        apply(next, user, then);
        return next;
      } catch (error) {
        // Spec section 8: a failed current-user fetch is logged only; the visitor stays where they are.
        console.warn('current user not loaded', error);
        const next: Session = { status: 'anonymous', unconfirmed: true };
        if (ticket !== latest.current) return next;
        carried.current = undefined;
        setSession((previous) => (previous.status === 'loading' ? next : previous));
        return next;
      }
    },
    [apply],
  );

  useRefreshOnUnauthorized(refresh);

  useEffect(() => {
    void (async () => {
      const launched = await signInByTelegramLaunch();
      if (launched && 'user' in launched) adopt(launched.user);
      else if (launched) {
        // A check the refusal's 401 set off may have answered meanwhile: anonymous too, so this wins.
        const failed: Session = { status: 'anonymous', launchFailure: launched.failure };
        setSession((previous) => (previous.status === 'signedIn' ? previous : failed));
      } else await refresh();
    })();
  }, [adopt, refresh]);

  const value = useMemo(() => ({ session, refresh, adopt }), [session, refresh, adopt]);
  return <SessionContext value={value}>{children}</SessionContext>;
}

/** Any 401 from the API: the session is checked again (a session ended elsewhere lands on sign-in). */
function useRefreshOnUnauthorized(refresh: () => Promise<Session>): void {
  useEffect(() => {
    let stop: (() => void) | undefined;
    let gone = false;
    void import('../api/client.ts').then(({ onUnauthorized }) => {
      if (!gone) stop = onUnauthorized(() => void refresh());
    });
    return () => {
      gone = true;
      stop?.();
    };
  }, [refresh]);
}

export function useSession(): SessionContextValue {
  const value = use(SessionContext);
  if (!value) throw new Error('useSession outside SessionProvider');
  return value;
}
