import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Update, UserFromGetMe } from 'grammy/types';
import { testBotToken } from './telegramSigning.ts';

export interface RecordedCall {
  method: string;
  payload: Record<string, unknown>;
}

interface ApiFailure {
  error_code: number;
  description: string;
  parameters?: { retry_after?: number };
}

export const testBotInfo: UserFromGetMe = {
  id: 123456789,
  is_bot: true,
  first_name: 'Iskra Test',
  username: 'iskra_test_bot',
  can_join_groups: false,
  can_read_all_group_messages: false,
  supports_inline_queries: false,
  can_connect_to_business: false,
  has_main_web_app: false,
  has_topics_enabled: false,
  allows_users_to_create_topics: false,
  can_manage_bots: false,
  supports_join_request_queries: false,
};

/**
 * A local Telegram Bot API for tests, speaking its HTTP protocol (`POST /bot<token>/<method>`, JSON in,
 * `{ok, result}` or `{ok: false, error_code, description}` out). It records every call, answers the
 * methods the bot uses, refuses other tokens with 401, answers 403 for chats in `blocked` as Telegram
 * does for a user who blocked the bot, and serves queued updates to long polling (getUpdates).
 */
export class TelegramStandIn {
  readonly calls: RecordedCall[] = [];
  /** Chat ids whose users have blocked the bot. */
  readonly blocked = new Set<number>();
  /** Each user's current profile photo (getUserProfilePhotos, getFile and the file download serve it). */
  readonly profilePhotos = new Map<number, Buffer>();
  private readonly failures: { method: string; failure: ApiFailure }[] = [];
  private readonly updates: Update[] = [];
  private pollers: (() => void)[] = [];
  private callWaiters: (() => void)[] = [];
  private nextMessageId = 1;
  private nextUpdateId = 1;
  private server: Server | undefined;
  /** The base URL to give grammY as `apiRoot` (TELEGRAM_API_ROOT), once started. */
  apiRoot = '';

  constructor(private readonly token = testBotToken) {}

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch(() => {
        res.writeHead(500).end();
      });
    });
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    const { port } = this.server.address() as AddressInfo;
    this.apiRoot = `http://127.0.0.1:${port}`;
    return this.apiRoot;
  }

  async stop(): Promise<void> {
    for (const wake of this.pollers) wake();
    this.pollers = [];
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  /** The next call of `method` fails once with this Telegram error. */
  failNext(method: string, failure: ApiFailure): void {
    this.failures.push({ method, failure });
  }

  /** Queues an update for getUpdates, numbering it. */
  pushUpdate(update: Omit<Update, 'update_id'>): void {
    this.updates.push({ ...update, update_id: this.nextUpdateId++ });
    for (const wake of this.pollers) wake();
    this.pollers = [];
  }

  callsOf(method: string): Record<string, unknown>[] {
    return this.calls.filter((c) => c.method === method).map((c) => c.payload);
  }

  /** Waits until a call of `method` matching `where` has been recorded. */
  async waitForCall(
    method: string,
    where: (payload: Record<string, unknown>) => boolean = () => true,
    timeoutMs = 10_000,
  ) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.callsOf(method).find(where);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(
          `no ${method} call within ${timeoutMs} ms; calls: ${this.calls.map((c) => c.method).join(', ')}`,
        );
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.callWaiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const match = /^\/bot([^/]+)\/(\w+)$/.exec(req.url ?? '');
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(Buffer.from(chunk as Uint8Array));
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
    };
    const download = /^\/file\/bot([^/]+)\/photos\/(\d+)\.jpg$/.exec(req.url ?? '');
    if (download && req.method === 'GET') {
      const photo = this.profilePhotos.get(Number(download[2]));
      if (download[1] !== this.token || !photo)
        return send(404, { ok: false, error_code: 404, description: 'Not Found' });
      res.writeHead(200, { 'Content-Type': 'application/octet-stream' }).end(photo);
      return;
    }
    if (!match || req.method !== 'POST') return send(404, { ok: false, error_code: 404, description: 'Not Found' });
    const [, token, method = ''] = match;
    if (token !== this.token) return send(401, { ok: false, error_code: 401, description: 'Unauthorized' });
    const text = Buffer.concat(chunks).toString();
    const payload = (text ? JSON.parse(text) : {}) as Record<string, unknown>;
    if (method !== 'getUpdates') this.record(method, payload);

    const failureIndex = this.failures.findIndex((f) => f.method === method);
    if (failureIndex >= 0) {
      const [{ failure } = { failure: { error_code: 500, description: 'Internal' } }] = this.failures.splice(
        failureIndex,
        1,
      );
      return send(failure.error_code, { ok: false, ...failure });
    }
    const chatId = payload.chat_id;
    if (typeof chatId === 'number' && this.blocked.has(chatId) && /^(send|copy|forward)/.test(method)) {
      return send(403, { ok: false, error_code: 403, description: 'Forbidden: bot was blocked by the user' });
    }
    send(200, { ok: true, result: await this.result(method, payload) });
  }

  private record(method: string, payload: Record<string, unknown>): void {
    this.calls.push({ method, payload });
    for (const wake of this.callWaiters) wake();
    this.callWaiters = [];
  }

  private async result(method: string, payload: Record<string, unknown>): Promise<unknown> {
    switch (method) {
      case 'getMe':
        return testBotInfo;
      case 'getUpdates':
        return this.poll(payload);
      case 'sendMessage':
      case 'editMessageText':
        return {
          message_id: typeof payload.message_id === 'number' ? payload.message_id : this.nextMessageId++,
          date: Math.floor(Date.now() / 1000),
          chat: { id: payload.chat_id, type: 'private' },
          from: testBotInfo,
          text: payload.text,
        };
      case 'getUserProfilePhotos': {
        // As Telegram lists them: each photo in its sizes, smallest first (file ids name the user here).
        const id = Number(payload.user_id);
        const photo = this.profilePhotos.get(id);
        const sizes = [
          { file_id: `small_${id}`, file_unique_id: `s${id}`, width: 160, height: 160, file_size: 1000 },
          { file_id: `big_${id}`, file_unique_id: `b${id}`, width: 640, height: 640, file_size: photo?.length ?? 0 },
        ];
        return { total_count: photo ? 1 : 0, photos: photo ? [sizes] : [] };
      }
      case 'getFile': {
        const [, size = '', id = ''] = /^(small|big)_(\d+)$/.exec(String(payload.file_id)) ?? [];
        return {
          file_id: payload.file_id,
          file_unique_id: `${size}${id}`,
          file_size: this.profilePhotos.get(Number(id))?.length,
          file_path: size === 'big' ? `photos/${id}.jpg` : `photos/small_${id}.jpg`,
        };
      }
      case 'createInvoiceLink':
        return `https://t.me/$iskra_test_invoice_${this.calls.length}`;
      default:
        return true;
    }
  }

  /** Long polling: updates after `offset` now, or as soon as one is queued, or [] after `timeout` seconds. */
  private async poll(payload: Record<string, unknown>): Promise<Update[]> {
    const offset = typeof payload.offset === 'number' ? payload.offset : 0;
    const timeout = typeof payload.timeout === 'number' ? Math.min(payload.timeout, 30) : 0;
    const pending = () => this.updates.filter((u) => u.update_id >= offset);
    if (pending().length === 0 && timeout > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, timeout * 1000);
        this.pollers.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return pending();
  }
}
