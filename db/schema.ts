import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { $brand } from 'zod';

/**
 * An account's id (`users.id`) and a profile's id (`profiles.id`): different rows, both plain integers at run
 * time, branded so that one cannot be given where the other is meant. The columns below carry the brands,
 * so a row read through Kysely brings branded ids and a query asks for the right one. The same types as
 * server/contract/ids.ts (zod's brand, spelled out here because db imports nothing of ours; a brand is
 * structural, so the two spellings are one type, as server/brandedIds.test.ts checks).
 */
export type UserId = number & $brand<'UserId'>;
export type ProfileId = number & $brand<'ProfileId'>;

/**
 * The Kysely view of the database. Migrations are the truth; this mirrors them.
 * Timestamps are ISO-8601 UTC strings (`Date#toISOString`) on both SQLite and PostgreSQL,
 * so they compare correctly as text and read the same from either driver.
 */
export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  verification_codes: VerificationCodesTable;
  login_failures: LoginFailuresTable;
  profiles: ProfilesTable;
  photos: PhotosTable;
  swipes: SwipesTable;
  swipe_undos: SwipeUndosTable;
  matches: MatchesTable;
  blocks: BlocksTable;
  reports: ReportsTable;
  rate_counters: RateCountersTable;
  conversations: ConversationsTable;
  messages: MessagesTable;
  departed_conversations: DepartedConversationsTable;
  events: EventsTable;
  notification_jobs: NotificationJobsTable;
  payments: PaymentsTable;
  job_runs: JobRunsTable;
  job_locks: JobLocksTable;
  moderation_flags: ModerationFlagsTable;
  referral_codes: ReferralCodesTable;
  referrals: ReferralsTable;
  telegram_link_tokens: TelegramLinkTokensTable;
  session_handovers: SessionHandoversTable;
  push_keys: PushKeysTable;
  push_subscriptions: PushSubscriptionsTable;
  search_pools: SearchPoolsTable;
  typing_marks: TypingMarksTable;
  photo_faces: PhotoFacesTable;
  photo_verifications: PhotoVerificationsTable;
  admin_actions: AdminActionsTable;
}

export interface UsersTable {
  id: Generated<UserId>;
  /** Lower-cased; null for accounts that sign in only through Telegram or Google. */
  email: string | null;
  password_hash: string | null;
  language: 'ru' | 'en';
  verified_at: string | null;
  banned_at: string | null;
  created_at: string;
  /** End of premium; the subscription is active while this lies in the future. */
  premium_until: string | null;
  /** Telegram user id as decimal text (ids exceed 32 bits); unique. Never shown to other users. */
  telegram_id: string | null;
  /** Telegram @username as last seen, for support and admins only; never shown to other users. */
  telegram_username: string | null;
  /** Google account subject (`sub`); unique. */
  google_sub: string | null;
  /** When the user last sent /start: from then on the bot may message them. */
  bot_started_at: string | null;
  /** When Telegram last refused a message to them (403: blocked the bot); cleared by the next /start. */
  bot_unreachable_at: string | null;
  /** The `premium_until` a renewal reminder went out for (one reminder per subscription end). */
  premium_reminded_for: string | null;
}
export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;

export interface SessionsTable {
  /** SHA-256 of the session id; the id itself only lives in the cookie or the JWT. */
  id_hash: string;
  user_id: UserId;
  created_at: string;
  expires_at: string;
  /** Keyed hash of the sign-in's address and browser, for the shared-device moderation signal; null before. */
  device_hash?: string | null;
  /** A coarse label of the browser and system it signed in from ("Chrome · Android"); never the User-Agent. */
  device_label?: string | null;
  /** When a request last used it, written at most every few minutes; null until then. */
  last_seen_at?: string | null;
}
export type Session = Selectable<SessionsTable>;
export type NewSession = Insertable<SessionsTable>;

export interface VerificationCodesTable {
  id: Generated<number>;
  user_id: UserId;
  email: string;
  /** HMAC-SHA256 of the code under the server secret: a leaked table does not give the codes away. */
  code_hash: string;
  created_at: string;
  expires_at: string;
  attempts: number;
  used_at: string | null;
  /** What the code is for; each kind has its own newest code, cooldown and hourly cap. */
  purpose: Generated<CodePurpose>;
}
/** `verify`: the address at sign-up; `reset`: a forgotten password; `email_change`: a new address, mailed there. */
export type CodePurpose = 'verify' | 'reset' | 'email_change';
export type VerificationCode = Selectable<VerificationCodesTable>;
export type NewVerificationCode = Insertable<VerificationCodesTable>;

export interface LoginFailuresTable {
  id: Generated<number>;
  /** SHA-256 of `email|ip`, so the table does not become a log of who tried which address. */
  key_hash: string;
  failed_at: string;
}

export type Gender = 'Male' | 'Female' | 'Other';
export type PreferredGender = 'Male' | 'Female' | 'Other' | 'Any';

export interface ProfilesTable {
  id: Generated<ProfileId>;
  user_id: UserId;
  name: string;
  age: number;
  gender: Gender;
  preferred_gender: PreferredGender;
  bio: string;
  /** The city as typed: shown as it is when `place_id` is null (a place the city data set does not know). */
  city: string;
  /** The city as a place of the data set (its GeoNames id, server/features/location/cities.json), named in each reader's language. */
  place_id: number | null;
  /** Snapped to the ~1 km grid (features/profiles/locationGrid.ts); never the exact position. */
  latitude: number | null;
  longitude: number | null;
  created_at: string;
  updated_at: string;
  /** 1: shown only to people this profile has liked (incognito). */
  private_mode: Generated<number>;
  /** 1: the bot may send match and message notifications. */
  notifications: Generated<number>;
  /** 1: match and message e-mails may go to a user without Telegram (the one-click unsubscribe sets 0). */
  email_notifications: Generated<number>;
  /** 1: match, message and like notices may go as Web Push to the browsers the person subscribed. */
  push_notifications: Generated<number>;
  /** Set when reports carry strong evidence (safety/reportEvidence.ts): hidden from search and likes until an admin decides. */
  held_at: string | null;
  /** Set by triggers (migration search_changes) whenever the person's eligibility for others' searches may have changed. */
  search_changed_at: Generated<string | null>;
  /** The answered prompts, JSON `[{"prompt_id", "answer"}]` in display order (features/prompts). */
  prompts: Generated<string>;
  /** When the person last used the app, to the hour at best (sessions/service.ts); never shown finer than a day. */
  active_at: Generated<string | null>;
  /** 0: others never see how recently this person was active (`active_recently`). */
  show_activity: Generated<number>;
  /** 1: a selfie matched this person's own photos (features/photoVerification); reset when the main photo no longer matches. */
  verified: Generated<number>;
  /** When the person agreed that face descriptors of their photos may be kept (biometric data); null: none kept. */
  face_consent_at: Generated<string | null>;
}
export type Profile = Selectable<ProfilesTable>;
export type NewProfile = Insertable<ProfilesTable>;
export type ProfileUpdate = Updateable<ProfilesTable>;

export interface PhotosTable {
  id: Generated<number>;
  profile_id: ProfileId;
  /** `<32 hex>.jpg` under DATA_DIR/uploads; the thumbnail is `<32 hex>.thumb.jpg`. */
  file_name: string;
  position: number;
  created_at: string;
  /** A blurred thumbnail under its own random name (null for photos made before blurring existed). */
  blur_name: string | null;
  /** 'held': the upload screen flagged it; shown to its owner only ("under review") until a moderator decides. */
  moderation: Generated<PhotoModeration>;
  /** The upload classifier's score (0-1), null when nothing screened it. */
  screen_score: Generated<number | null>;
}
export type PhotoModeration = 'clear' | 'held';
export type Photo = Selectable<PhotosTable>;
export type NewPhoto = Insertable<PhotosTable>;

export interface SwipesTable {
  swiper_id: ProfileId;
  target_id: ProfileId;
  /** 1 like, 0 dislike. */
  liked: number;
  created_at: string;
  /** 1 once the target opened their Likes screen after this like (POST /api/likes/seen); 0 again when a swipe becomes a like. */
  target_seen: Generated<number>;
  /** A like's message to the person liked (1 to 200 characters), null for a plain like or a dislike. */
  message: Generated<string | null>;
}

/** One taken-back swipe (POST /api/undo): what the free daily undo allowance counts. */
export interface SwipeUndosTable {
  profile_id: ProfileId;
  target_id: ProfileId;
  created_at: string;
  /** The undone swipe was a like (1), with a message (`had_message` 1): still counted by the like allowances. */
  liked: number;
  had_message: Generated<number>;
}

export interface MatchesTable {
  id: Generated<number>;
  /** The pair ordered by id, so the unique index allows one match per pair. */
  profile_low: ProfileId;
  profile_high: ProfileId;
  created_at: string;
  unmatched_at: string | null;
  /** How far each side has taken notice of the match, only ever raised (see MatchSeen). */
  low_seen: Generated<MatchSeen>;
  high_seen: Generated<MatchSeen>;
  /** When each side agreed to show the other their Telegram @username (cleared when the match ends). */
  low_shared_username_at: string | null;
  high_shared_username_at: string | null;
}

/** 0 not yet, 1 the match overlay was shown (POST /api/matches/seen), 2 opened: its profile or chat (implies shown). */
export type MatchSeen = 0 | 1 | 2;

export interface BlocksTable {
  blocker_id: ProfileId;
  blocked_id: ProfileId;
  created_at: string;
}

export type ReportReason = 'fake' | 'spam' | 'offensive' | 'underage' | 'other';

/** What the server had recorded between reporter and reported when the report was filed (server/features/safety/reportEvidence.ts). */
export type ReportEvidence = 'new_account' | 'unseen' | 'shown' | 'matched' | 'chatted';

export interface ReportsTable {
  id: Generated<number>;
  reporter_id: ProfileId;
  reported_id: ProfileId;
  reason: ReportReason;
  comment: string;
  created_at: string;
  resolved_at: string | null;
  resolution: string | null;
  /** Reports filed before evidence was recorded read `unseen` (they weigh nothing). */
  evidence: ReportEvidence;
}

export interface RateCountersTable {
  key: string;
  window_start: string;
  count: number;
  /** The key's count in the window before this one, as read by the latest call counted here (0 when none). */
  previous: ColumnType<number, number | undefined, number>;
}

export interface ConversationsTable {
  id: Generated<number>;
  match_id: number;
  created_at: string;
  last_message_at: string | null;
}

export interface MessagesTable {
  id: Generated<number>;
  conversation_id: number;
  /** The sender's profile id. */
  sender_id: ProfileId;
  /** Plain text, stored and returned as typed; the app renders it as text, never HTML. */
  content: string;
  created_at: string;
  read_at: string | null;
  /** The sender's app's name for the message: a repeat with the same key is the same message. */
  client_key: string | null;
}

/** A conversation that ended because the other person deleted their profile; told to `profile_id`, who stays. */
export interface DepartedConversationsTable {
  conversation_id: number;
  profile_id: ProfileId;
  departed_at: string;
}

export type EventType = 'message' | 'match' | 'read' | 'badges' | 'match_seen' | 'unmatched';

export interface EventsTable {
  id: Generated<number>;
  user_id: UserId;
  type: EventType;
  /** JSON text. */
  payload: string;
  created_at: string;
}

/** `account_change`: a way in added or removed, the e-mail or the password changed (accountAlerts), always sent. */
export type NotificationKind = 'match' | 'message' | 'like' | 'premium_ending' | 'account_change';

export interface NotificationJobsTable {
  id: Generated<number>;
  user_id: UserId;
  kind: NotificationKind;
  conversation_id: number | null;
  /** The live event it announces: acknowledging that event (POST /api/events/ack) settles it. */
  event_id: number | null;
  /** The person it is about (the match, the liker, the sender); null for a renewal reminder. */
  other_profile_id: ProfileId | null;
  /** JSON: who and what, e.g. the sender's name and the start of the text. */
  payload: string;
  created_at: string;
  next_attempt_at: string;
  attempts: number;
  done_at: string | null;
  /** sent; seen (the app showed it in time), stale (no longer true), disabled, unreachable, gave_up, throttled, interrupted */
  outcome: string | null;
  /** Through the bot, by e-mail (to users without Telegram) or as Web Push (to the browsers the user subscribed). */
  channel: Generated<NotificationChannel>;
  /** An e-mail job: when it was handed to SMTP; set but not done means a worker died mid-send (never sent again). */
  sending_at: string | null;
}

export type NotificationChannel = 'bot' | 'email' | 'push';

/** `t.me/<bot>?start=link_<token>`: the token's SHA-256 only; single use, short-lived. */
export interface TelegramLinkTokensTable {
  token_hash: string;
  user_id: UserId;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** `/token#code=…`: a one-time code handing a session over to another browser; SHA-256 only, single use, short-lived. */
export interface SessionHandoversTable {
  code_hash: string;
  /** The session handed over: the code dies with it. */
  session_hash: string;
  user_id: UserId;
  created_at: string;
  expires_at: string;
}

/** When a user's last "typing…" signal went out: one every few seconds per sender (chat/typing). */
export interface TypingMarksTable {
  user_id: UserId;
  sent_at: string;
}

export type PaymentStatus = 'pending' | 'succeeded' | 'canceled' | 'refunded';

export interface PaymentsTable {
  id: Generated<number>;
  user_id: UserId;
  /** test | yookassa | stars */
  provider: string;
  plan_id: string;
  /** Whole roubles (or Stars for provider stars). */
  amount: number;
  currency: string;
  interval_days: number;
  idempotence_key: string;
  provider_payment_id: string | null;
  status: PaymentStatus;
  created_at: string;
  credited_at: string | null;
}

/** interrupted: the process stopped (SHUTDOWN_GRACE_MS ran out) before the job finished; its firing was freed for another run. */
export type JobStatus = 'running' | 'ok' | 'failed' | 'skipped' | 'interrupted';

export interface JobRunsTable {
  id: Generated<number>;
  name: string;
  /** host:pid of the process that ran (or skipped) it. */
  runner: string;
  started_at: string;
  finished_at: string | null;
  status: JobStatus;
  /** JSON object of what the job did, e.g. {"deleted": 3}. */
  counts: string;
  error: string | null;
  /** The cron slot (scheduled time, ISO) this run was for; null for a run by hand. */
  slot: string | null;
}

export interface JobLocksTable {
  name: string;
  holder: string;
  expires_at: string;
  /** The cron slot (scheduled time, ISO) the job last ran for; null for runs by hand only. */
  last_slot: string | null;
}

export type ModerationFlagReason = 'repeated_first_message' | 'shared_device_likes';

export interface ModerationFlagsTable {
  id: Generated<number>;
  user_id: UserId;
  reason: ModerationFlagReason;
  /** JSON: what triggered it. */
  details: string;
  created_at: string;
  resolved_at: string | null;
}

/** An account's invitation code (random; made on first demand). */
export interface ReferralCodesTable {
  user_id: UserId;
  code: string;
  created_at: string;
}

/** The account `referred_user_id` signed up through `code` (once per account). */
export interface ReferralsTable {
  referred_user_id: UserId;
  referrer_user_id: UserId;
  code: string;
  created_at: string;
}

/** A profile's discovery pool and frontier (features/search/candidatePool.ts); a hint, re-checked before use. */
export interface SearchPoolsTable {
  profile_id: ProfileId;
  /** The filters and position the pool was ranked for (search/filters.ts, poolKeyOf). */
  pool_key: string;
  expires_at: string;
  bound_km: number;
  /** The newest `profiles.search_changed_at` the pool has seen, null without a position. */
  watermark: string | null;
  /** Packed ids, flat distances and scores (candidatePool.ts, packCandidates). */
  candidates: Uint8Array;
  /** Changes already re-checked that the change query still reads back, JSON `[[id, stamp], ...]` (candidatePool.ts `checked`). */
  checked_changes: string | null;
  /** When the fresh scan this pool's knowledge goes back to was made (candidatePool.ts Pool.scannedAt). */
  scanned_at: string | null;
}

/** The server's VAPID key pair (base64url, as the web-push package writes them): one row, id 1. */
export interface PushKeysTable {
  id: number;
  public_key: string;
  private_key: string;
  created_at: string;
}

/** A browser's PushSubscription (RFC 8030 endpoint, RFC 8291 keys) for a signed-in user. */
export interface PushSubscriptionsTable {
  id: Generated<number>;
  user_id: UserId;
  /** The session that subscribed the browser: the subscription ends with it. */
  session_hash: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  created_at: string;
}

/** A face descriptor of one photo (Float32 little-endian), kept only with the owner's consent. */
export interface PhotoFacesTable {
  photo_id: number;
  descriptor: Uint8Array;
  created_at: string;
}

export type PhotoVerificationStatus = 'processing' | 'pending' | 'verified' | 'rejected';

/** One selfie check (features/photoVerification). The selfie file is deleted at the decision; the row stays. */
export interface PhotoVerificationsTable {
  id: Generated<number>;
  profile_id: ProfileId;
  status: PhotoVerificationStatus;
  /** The pose asked for (photoVerification/poses.ts). */
  pose_id: string;
  /** The selfie under the photo store's private name until a decision; null after. */
  selfie_name: string | null;
  /** The best face similarity against the person's own photos (0-1), null when not computed. */
  similarity: number | null;
  /** 1 the pose was seen, 0 not, null unknown. */
  pose_ok: number | null;
  /** Faces found on the selfie, null when not analysed. */
  faces: number | null;
  /** Why a selfie was rejected or sent to review (a code the app translates). */
  reason: string | null;
  created_at: string;
  decided_at: string | null;
  /** 'model' or the admin who decided (as in admin_actions.admin). */
  decided_by: string | null;
}

/** The audit log: every admin action, by whom, on whom, why. Kept after the accounts it names are gone. */
export interface AdminActionsTable {
  id: Generated<number>;
  /** Who: `email:<address>`, `telegram:<id>` or `cli`. */
  admin: string;
  action: string;
  target_user_id: number | null;
  target_profile_id: number | null;
  reason: Generated<string>;
  /** JSON: what else the action carried (a report id, a refund amount…). */
  details: Generated<string>;
  created_at: string;
}
