/**
 * Where a deep-link parameter leads: the bot's buttons open the Mini App with `chat_<id>` (a message),
 * `matches` (a new match) or `subscription` (the renewal reminder). Anything else opens the app normally.
 */
export function startRoute(param: string | null): string | null {
  if (!param) return null;
  const chat = /^chat_(\d{1,12})$/.exec(param);
  if (chat) return `/chat/${chat[1] ?? ''}`;
  const fixed: Record<string, string> = { matches: '/matches', likes: '/WhoLike', chats: '/ChatList', subscription: '/subscription', search: '/search' };
  return Object.hasOwn(fixed, param) ? (fixed[param] ?? null) : null;
}
