import { z } from 'zod';

/** The fields of a YooKassa payment object that we act on (API v3). */
const paymentObject = z.object({
  id: z.string().min(1),
  status: z.enum(['pending', 'waiting_for_capture', 'succeeded', 'canceled']),
  paid: z.boolean().optional(),
  amount: z.object({ value: z.string(), currency: z.string() }),
  confirmation: z.object({ type: z.string(), confirmation_url: z.string().optional() }).optional(),
  metadata: z.record(z.string(), z.string()).optional(),
});
export type YooKassaPayment = z.infer<typeof paymentObject>;

/** The fields of a YooKassa refund object that we act on. */
const refundObject = z.object({
  id: z.string().min(1),
  payment_id: z.string().min(1),
  status: z.enum(['pending', 'succeeded', 'canceled']),
  amount: z.object({ value: z.string(), currency: z.string() }),
  cancellation_details: z.object({ party: z.string(), reason: z.string() }).optional(),
});
export type YooKassaRefund = z.infer<typeof refundObject>;
const refundList = z.object({ items: z.array(refundObject) });

export class YooKassaError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
    this.name = 'YooKassaError';
  }
}

export interface NewYooKassaPayment {
  idempotenceKey: string;
  amountRub: number;
  description: string;
  returnUrl: string;
  paymentId: number;
  /** For the 54-FZ receipt; without it YooKassa asks the buyer on its page. */
  email: string | null;
}

/**
 * The YooKassa API v3 client: create a payment (redirect confirmation, captured at once, with a receipt),
 * read one back, and refund one. Every call carries Basic auth; creation carries our idempotence key, so a retried
 * call returns the same payment instead of charging twice. Answers are checked with zod.
 */
export class YooKassaClient {
  constructor(
    private readonly apiUrl: string,
    private readonly shopId: string,
    private readonly secretKey: string,
    private readonly timeoutMs = 10_000,
  ) {}

  private async call<T>(
    schema: z.ZodType<T>,
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<T> {
    let res: Response;
    try {
      res = await fetch(`${this.apiUrl.replace(/\/$/, '')}${path}`, {
        method,
        headers: {
          Authorization: `Basic ${Buffer.from(`${this.shopId}:${this.secretKey}`).toString('base64')}`,
          ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
          ...headers,
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw new YooKassaError(`YooKassa unreachable: ${error instanceof Error ? error.message : String(error)}`, null);
    }
    if (!res.ok) throw new YooKassaError(`YooKassa answered ${res.status}`, res.status);
    const parsed = schema.safeParse(await res.json().catch(() => null));
    if (!parsed.success)
      throw new YooKassaError(
        `YooKassa answered an unexpected object for ${method} ${path.split(/[/?]/)[1] ?? path}`,
        res.status,
      );
    return parsed.data;
  }

  createPayment(p: NewYooKassaPayment): Promise<YooKassaPayment> {
    const amount = { value: `${p.amountRub}.00`, currency: 'RUB' };
    return this.call(
      paymentObject,
      'POST',
      '/payments',
      {
        amount,
        capture: true,
        confirmation: { type: 'redirect', return_url: p.returnUrl },
        description: p.description,
        metadata: { payment_id: String(p.paymentId) },
        ...(p.email
          ? {
              receipt: {
                customer: { email: p.email },
                items: [
                  {
                    description: p.description,
                    quantity: '1.00',
                    amount,
                    vat_code: 1,
                    payment_mode: 'full_payment',
                    payment_subject: 'service',
                  },
                ],
              },
            }
          : {}),
      },
      { 'Idempotence-Key': p.idempotenceKey },
    );
  }

  getPayment(id: string): Promise<YooKassaPayment> {
    return this.call(paymentObject, 'GET', `/payments/${encodeURIComponent(id)}`);
  }

  /** The refunds made of one payment, cancelled ones included (one page is plenty: we make one per try). */
  async refundsOf(paymentId: string): Promise<YooKassaRefund[]> {
    const list = await this.call(refundList, 'GET', `/refunds?payment_id=${encodeURIComponent(paymentId)}&limit=100`);
    return list.items;
  }

  /**
   * Gives (the rest of) a captured payment back. A refund of all that is left needs no receipt data:
   * YooKassa registers the refund receipt from the payment's own. The idempotence key makes a retried refund the same refund.
   */
  createRefund(r: {
    paymentId: string;
    amountRub: number;
    description: string;
    idempotenceKey: string;
  }): Promise<YooKassaRefund> {
    return this.call(
      refundObject,
      'POST',
      '/refunds',
      {
        payment_id: r.paymentId,
        amount: { value: r.amountRub.toFixed(2), currency: 'RUB' },
        description: r.description,
      },
      { 'Idempotence-Key': r.idempotenceKey },
    );
  }
}
