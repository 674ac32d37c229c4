/**
 * Every query key of the app, in one place: hooks, mutations and the live-event mapping (api/liveCache.ts)
 * name the same data the same way. A person's own screens sit under `['person', id]`, so everything about
 * someone who unmatched or was blocked goes in one call.
 */
export const queryKeys = {
  currentUser: () => ['currentUser'] as const,
  config: () => ['config'] as const,
  ownProfile: () => ['ownProfile'] as const,
  settings: () => ['settings'] as const,
  account: () => ['account'] as const,
  plans: () => ['premium', 'plans'] as const,
  subscription: () => ['premium', 'subscription'] as const,
  matches: () => ['matches'] as const,
  likers: () => ['likers'] as const,
  person: (profileId: number) => ['person', profileId] as const,
  matchProfile: (profileId: number) => ['person', profileId, 'match'] as const,
  likerProfile: (profileId: number) => ['person', profileId, 'liker'] as const,
  /** The tab bar's counts (`GET /api/badges`), kept true by the live stream. */
  badges: () => ['badges'] as const,
  chats: () => ['chats'] as const,
  conversations: () => ['conversation'] as const,
  conversation: (conversationId: number) => ['conversation', conversationId] as const,
  trainingCard: () => ['trainingCard'] as const,
  /** The own photo verification (issue 40): status, the pose to take, consent. */
  photoVerification: () => ['photoVerification'] as const,
  /** The prompts a profile may answer (`GET /api/prompts`), in one language. */
  prompts: (language: string) => ['prompts', language] as const,
  /** A lazily shipped part of the app's texts in one language (i18n.ts loadLazyTexts). */
  lazyTexts: (part: string, language: string) => ['lazyTexts', part, language] as const,
  /** Whether the signed-in person may open the moderation console (`GET /api/admin/me`). */
  adminMe: () => ['admin', 'me'] as const,
  /** The moderation console's queues and pages (screens/Admin), all under `['admin']`. */
  admin: (...parts: (string | number)[]) => ['admin', ...parts] as const,
};

/** Kept when the signed-in person changes: public, the same for everyone. */
export const publicKeys: readonly string[] = [queryKeys.config()[0], queryKeys.currentUser()[0]];
