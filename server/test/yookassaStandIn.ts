import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

type Status = 'pending' | 'waiting_for_capture' | 'succeeded' | 'canceled';

export interface RecordedYooKassaRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown> | null;
}

/**
 * A local YooKassa API v3 for tests, speaking its HTTP protocol: Basic auth with the shop id and secret key,
 * `POST /v3/payments` (the Idempotence-Key header required, and a repeated key answers the same payment),
 * `GET /v3/payments/<id>`, `POST /v3/refunds` (full or partial, only of a succeeded payment and never
 * beyond its amount, with the same idempotence rule) and `GET /v3/refunds?payment_id=<id>`. Tests move a payment's status as the buyer and the
 * bank would, choose how the next refund ends, and can take the API down to see an outage.
 */
export class YooKassaStandIn {
  readonly requests: RecordedYooKassaRequest[] = [];
  private readonly payments = new Map<string, Record<string, unknown> & { status: Status }>();
  private readonly byKey = new Map<string, string>();
  private readonly refunds = new Map<
    string,
    { id: string; payment_id: string; status: string; amount: { value: string; currency: string } }
  >();
  /** How the next refund ends: YooKassa may cancel one (say, the shop's balance is short). */
  nextRefund: 'succeeded' | 'pending' | 'canceled' = 'succeeded';
  private server: Server | undefined;
  down = false;
  apiUrl = '';

  constructor(
    readonly shopId = '123456',
    readonly secretKey = 'test_secret_key',
  ) {}

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch(() => res.writeHead(500).end());
    });
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    this.apiUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v3`;
    return this.apiUrl;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  setStatus(id: string, status: Status): void {
    const payment = this.payments.get(id);
    if (!payment) throw new Error(`no payment ${id}`);
    payment.status = status;
    payment.paid = status === 'succeeded';
  }

  created(): RecordedYooKassaRequest[] {
    return this.requests.filter((r) => r.method === 'POST' && r.path === '/v3/payments');
  }

  /** A pending refund ends as YooKassa decides. */
  settleRefund(id: string, status: 'succeeded' | 'canceled'): void {
    const refund = [...this.refunds.values()].find((r) => r.id === id);
    if (!refund) throw new Error(`no refund ${id}`);
    refund.status = status;
  }

  refundRequests(): RecordedYooKassaRequest[] {
    return this.requests.filter((r) => r.method === 'POST' && r.path === '/v3/refunds');
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(Buffer.from(chunk as Uint8Array));
    const text = Buffer.concat(chunks).toString();
    const body = text ? (JSON.parse(text) as Record<string, unknown>) : null;
    const path = req.url ?? '';
    this.requests.push({ method: req.method ?? '', path, headers: req.headers, body });
    const send = (status: number, payload: unknown): void => {
      res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(payload));
    };
    if (this.down) return send(503, { type: 'error', code: 'internal_server_error' });
    const expected = `Basic ${Buffer.from(`${this.shopId}:${this.secretKey}`).toString('base64')}`;
    if (req.headers.authorization !== expected) return send(401, { type: 'error', code: 'invalid_credentials' });

    if (req.method === 'POST' && path === '/v3/payments') {
      const key = req.headers['idempotence-key'];
      if (typeof key !== 'string' || !key)
        return send(400, { type: 'error', code: 'invalid_request', parameter: 'Idempotence-Key' });
      const known = this.byKey.get(key);
      if (known) return send(200, this.payments.get(known));
      const id = randomUUID();
      const confirmation = body?.confirmation as { return_url?: string } | undefined;
      const payment = {
        id,
        status: 'pending' as Status,
        paid: false,
        amount: body?.amount,
        description: body?.description,
        metadata: body?.metadata ?? {},
        created_at: new Date().toISOString(),
        confirmation: {
          type: 'redirect',
          confirmation_url: `https://yoomoney.test/checkout/payments/v2/contract?orderId=${id}`,
          return_url: confirmation?.return_url,
        },
      };
      this.payments.set(id, payment);
      this.byKey.set(key, id);
      return send(200, payment);
    }
    if (req.method === 'POST' && path === '/v3/refunds') {
      const key = req.headers['idempotence-key'];
      if (typeof key !== 'string' || !key)
        return send(400, { type: 'error', code: 'invalid_request', parameter: 'Idempotence-Key' });
      const known = this.refunds.get(key);
      if (known) return send(200, known);
      const payment = this.payments.get(typeof body?.payment_id === 'string' ? body.payment_id : '');
      const amount = body?.amount as { value?: string; currency?: string } | undefined;
      const paid = payment ? Number((payment.amount as { value: string }).value) : 0;
      const already = [...this.refunds.values()]
        .filter((r) => r.payment_id === payment?.id && r.status !== 'canceled')
        .reduce((sum, r) => sum + Number(r.amount.value), 0);
      if (!payment || payment.status !== 'succeeded')
        return send(400, { type: 'error', code: 'invalid_request', parameter: 'payment_id' });
      if (amount?.currency !== 'RUB' || !(Number(amount.value) > 0) || Number(amount.value) + already > paid) {
        return send(400, { type: 'error', code: 'invalid_request', parameter: 'amount' });
      }
      const status = this.nextRefund;
      this.nextRefund = 'succeeded';
      const refund = {
        id: randomUUID(),
        payment_id: payment.id as string,
        status,
        amount: { value: amount.value ?? '', currency: 'RUB' },
        created_at: new Date().toISOString(),
        ...(status === 'canceled'
          ? { cancellation_details: { party: 'yoo_money', reason: 'insufficient_funds' } }
          : {}),
      };
      this.refunds.set(key, refund);
      return send(200, refund);
    }
    if (req.method === 'GET' && path.startsWith('/v3/refunds?')) {
      const paymentId = new URLSearchParams(path.slice('/v3/refunds?'.length)).get('payment_id');
      return send(200, {
        type: 'list',
        items: [...this.refunds.values()].filter((r) => !paymentId || r.payment_id === paymentId),
      });
    }
    const read = /^\/v3\/payments\/([\w-]+)$/.exec(path);
    if (req.method === 'GET' && read) {
      const payment = this.payments.get(read[1] ?? '');
      return payment ? send(200, payment) : send(404, { type: 'error', code: 'not_found' });
    }
    send(404, { type: 'error', code: 'not_found' });
  }
}
