import { genderContext } from '../../../locales/genderContext.ts';
import { translatorFor, type Language } from '../../../locales/index.ts';
import type { PushPayload } from '../../contract/push.ts';
import type { NotificationContent, NotificationGenders } from './content.ts';

/**
 * A match, message or like as a Web Push notification in the recipient's language: what the lock screen
 * shows, and the screen a tap opens. One tag per conversation (and one for likes), so a newer notice replaces
 * the older on the device, as the outbox's window does for the bot.
 */
export function pushPayloadOf(
  content: Extract<NotificationContent, { kind: 'match' | 'message' | 'like' }>,
  language: Language,
  genders: NotificationGenders = { reader: null, other: null },
): PushPayload {
  const t = translatorFor(language);
  switch (content.kind) {
    case 'match':
      return {
        kind: 'match',
        title: t('push.matchTitle'),
        // Said to the recipient ("Напишите первой"): their gender.
        body: t('push.matchBody', { name: content.name, context: genderContext(genders.reader) }),
        url: content.profileId === undefined ? '/matches' : `/UsersProfile/${content.profileId}`,
        tag: content.profileId === undefined ? 'match' : `match-${content.profileId}`,
      };
    case 'message':
      return {
        kind: 'message',
        title: content.name,
        body: content.preview,
        url: `/chat/${content.conversationId}`,
        tag: `chat-${content.conversationId}`,
      };
    case 'like':
      return {
        kind: 'like',
        title: t('push.likeTitle'),
        // Said of the liker ("лайкнула вас"): their gender. A like with a message says someone wrote, never the words.
        body: t(content.wrote ? 'push.wroteBody' : 'push.likeBody', {
          name: content.name,
          context: genderContext(genders.other),
        }),
        url: '/WhoLike',
        tag: 'likes',
      };
  }
}
