import { conversationParams, messagesQuery, sendMessageBody, startConversationBody } from '../../contract/chat.ts';
import { requireUser } from '../../http/auth.ts';
import type { AppRouter } from '../../http/context.ts';
import { parse } from '../../http/validate.ts';
import type { Services } from '../../services.ts';

export function chatRoutes(router: AppRouter, { chat }: Services): void {
  router.post('/conversations/start', async (ctx) => {
    const { profile_id } = parse(startConversationBody, ctx.request.body);
    ctx.body = { conversation_id: await chat.start(requireUser(ctx).userId, profile_id) };
  });

  router.get('/conversations/:id/messages', async (ctx) => {
    const auth = requireUser(ctx);
    const { id } = parse(conversationParams, ctx.params);
    const { limit, before_message_id } = parse(messagesQuery, ctx.query);
    ctx.body = await chat.messages(auth.userId, id, limit, before_message_id);
  });

  router.post('/conversations/:id/messages', async (ctx) => {
    const auth = requireUser(ctx);
    const { id } = parse(conversationParams, ctx.params);
    const { content, client_key } = parse(sendMessageBody, ctx.request.body);
    ctx.status = 201;
    ctx.body = await chat.send(auth.userId, id, content, client_key ?? null);
  });

  router.post('/conversations/:id/typing', async (ctx) => {
    const auth = requireUser(ctx);
    const { id } = parse(conversationParams, ctx.params);
    ctx.body = await chat.typing(auth.userId, id);
  });

  router.get('/chats', async (ctx) => {
    ctx.body = await chat.chats(requireUser(ctx).userId);
  });
}
