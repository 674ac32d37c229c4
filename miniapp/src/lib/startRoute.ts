/**
 * Where a deep-link parameter (`startapp`, see the README) leads: `chat_<conversationId>` the
 * conversation, `match_<profileId>` the match's profile, `likes` the likers, `premium` the subscription
 * screen, `account` Menu → Account; the older names the bot's buttons used (`matches`, `subscription`, …) still work. An invitation
 * (`ref_<code>`) opens the app normally; anything else is unknown: the deck, with a short notice.
 */
export type StartTarget = { route: string } | { unknown: true };

const fixed: Record<string, string> = {
  likes: '/WhoLike',
  premium: '/subscription',
  matches: '/matches',
  chats: '/ChatList',
  subscription: '/subscription',
  search: '/search',
  // A sign-in or e-mail change notice's button: where an unknown way in is removed.
  account: '/account',
};

export function startTarget(param: string | null): StartTarget | null {
  if (!param || /^ref_[\w-]{1,60}$/.test(param)) return null;
  const chat = /^chat_([1-9]\d{0,11})$/.exec(param);
  if (chat) return { route: `/chat/${chat[1] ?? ''}` };
  const match = /^match_([1-9]\d{0,11})$/.exec(param);
  if (match) return { route: `/UsersProfile/${match[1] ?? ''}` };
  return Object.hasOwn(fixed, param) ? { route: fixed[param] ?? '/search' } : { unknown: true };
}
