import type { QueryClient } from '@tanstack/react-query';
import type { CurrentUserResponse } from '@contract/accounts.ts';
import type { BadgeCounts } from '@contract/badges.ts';
import type { ChatListItem } from '@contract/chat.ts';
import type { PersonListItem } from '@contract/discovery.ts';
import type { LiveEvent } from '@contract/events.ts';
import { onLiveEvent, onLiveOpen } from './liveEvents.ts';
import { addToConversation, markMineRead, type Conversation } from './queries/chat.ts';
import { queryKeys } from './queries/keys.ts';
import { matchMade } from './queries/swipes.ts';

/**
 * Server state changed elsewhere, applied to the cache in one place (DESIGN rule 10): the live events of
 * `/api/events` (a message, a read mark, a match, the tab bar's counts, a match ended) and the same changes
 * when this tab causes them (a match made here, someone unmatched or blocked here), so every screen shows
 * the same thing. What the events show beyond the cache (the match overlay, message toasts) is the app
 * shell's (components/LiveShell.tsx).
 */

/** Chat-list refreshes wait this long for more of a burst of messages. */
const chatsRefreshMs = 150;
let chatsRefresh: number | undefined;

function refreshChatsSoon(client: QueryClient): void {
  window.clearTimeout(chatsRefresh);
  chatsRefresh = window.setTimeout(
    () => void client.invalidateQueries({ queryKey: queryKeys.chats() }),
    chatsRefreshMs,
  );
}

function myProfileId(client: QueryClient): number | null {
  return client.getQueryData<CurrentUserResponse>(queryKeys.currentUser())?.userprofile?.id ?? null;
}

/** One live event's effect on the cache. */
export function applyLiveEvent(client: QueryClient, event: LiveEvent): void {
  switch (event.type) {
    case 'message': {
      const m = event.payload;
      const mine = m.sender_profile_id === myProfileId(client);
      // Someone else's message counts as read once it is shown: the open conversation tells the server.
      addToConversation(client, m.conversation_id, [
        {
          message_id: m.message_id,
          sender_profile_id: m.sender_profile_id,
          content: m.content,
          timestamp: m.timestamp,
          read: !mine,
        },
      ]);
      // The conversation moves up with its new last message at once; the list read again has the rest.
      client.setQueryData<ChatListItem[]>(queryKeys.chats(), (list) => {
        const row = list?.find((c) => c.conversation_id === m.conversation_id);
        if (!list || !row) return list;
        const moved = {
          ...row,
          last_message: m.content,
          last_message_time: m.timestamp,
          last_message_mine: mine,
          has_unread: row.has_unread || !mine,
        };
        return [moved, ...list.filter((c) => c !== row)];
      });
      refreshChatsSoon(client);
      return;
    }
    case 'read':
      markMineRead(client, event.payload.conversation_id, myProfileId(client));
      return;
    case 'match':
      matchMade(client);
      return;
    case 'badges':
      client.setQueryData<BadgeCounts>(queryKeys.badges(), event.payload);
      // A like taken back (POST /api/undo) changes no count the Likes screen has already marked seen: an open
      // likers list is read again on any change of counts (a closed one only becomes stale).
      void client.invalidateQueries({ queryKey: queryKeys.likers(), refetchType: 'active' });
      return;
    case 'unmatched':
      forgetPerson(client, event.payload.profile_id);
      return;
    case 'match_seen':
      // Only the overlay cares; the counts come in their own event.
      return;
    case 'typing':
      // Not server state: the open conversation shows it for a moment (screens/Chat/usePartnerTyping.ts).
      return;
  }
}

/**
 * Someone unmatched or blocked (by either side): gone from the lists at once, their profile and the
 * conversation with them no longer kept (a screen still showing them is left by its own navigation), and
 * the lists read again.
 */
export function forgetPerson(client: QueryClient, profileId: number): void {
  const withoutThem = (list: PersonListItem[] | undefined) => list?.filter((p) => p.id !== profileId);
  client.setQueryData(queryKeys.matches(), withoutThem);
  client.setQueryData(queryKeys.likers(), withoutThem);
  client.removeQueries({ queryKey: queryKeys.person(profileId), type: 'inactive' });
  // The chat list row names the person; their cached conversation is dropped too.
  const conversations = client
    .getQueryCache()
    .findAll({ queryKey: queryKeys.conversations() })
    .filter((query) => (query.state.data as Conversation | undefined)?.participant.profile_id === profileId);
  client.setQueryData<ChatListItem[]>(queryKeys.chats(), (list) => list?.filter((c) => c.profile_id !== profileId));
  for (const query of conversations)
    if (!query.isActive()) client.removeQueries({ queryKey: query.queryKey, exact: true });
  void client.invalidateQueries({ queryKey: queryKeys.matches() });
  void client.invalidateQueries({ queryKey: queryKeys.likers() });
  void client.invalidateQueries({ queryKey: queryKeys.chats() });
}

/**
 * Applies every live event to the cache while the app shell keeps the stream open (LiveShell.tsx), and
 * reads again what a dropped stream may have missed. Returns the function that stops.
 */
export function connectLiveCache(client: QueryClient): () => void {
  const stopEvents = onLiveEvent((event) => applyLiveEvent(client, event));
  // Whenever the stream opens, what it cannot tell is read again: a screen loaded before the server fixed
  // the stream's starting point (the usual case at start, the stream being opened after the first screen),
  // and a stream cut before its first event starts afresh. Only what a screen shows is fetched.
  const stopOpen = onLiveOpen(() => {
    for (const queryKey of [
      queryKeys.badges(),
      queryKeys.chats(),
      queryKeys.conversations(),
      queryKeys.matches(),
      queryKeys.likers(),
    ]) {
      void client.invalidateQueries({ queryKey });
    }
  });
  return () => {
    stopEvents();
    stopOpen();
    window.clearTimeout(chatsRefresh);
  };
}
