import { useTypingConversations } from './useTypingConversations.ts';

/** Whether the other person of this conversation is typing (see useTypingConversations). */
export function usePartnerTyping(conversationId: number, myProfileId: number | null): boolean {
  return useTypingConversations(myProfileId).has(conversationId);
}
