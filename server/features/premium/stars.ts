import type { Api } from 'grammy';

/**
 * Telegram Stars, the only currency Telegram allows for digital goods inside a Mini App. The server asks the
 * bot for invoice links and the bot hears of the payment (pre_checkout_query, successful_payment); this is
 * the narrow slice of the Bot API the premium side needs, so tests and the CLI can give their own.
 */
export interface StarsApi {
  createInvoiceLink(invoice: StarsInvoice): Promise<string>;
  refund(telegramUserId: number, chargeId: string): Promise<void>;
}

export interface StarsInvoice {
  title: string;
  description: string;
  payload: string;
  stars: number;
  /** Seconds; Telegram accepts only 2592000 (30 days) for a Stars subscription. */
  subscriptionPeriod?: number | undefined;
}

/** The one period Telegram allows for a Stars subscription: it renews every 30 days. */
export const starsSubscriptionPeriod = 2_592_000;

/**
 * The Bot API client a bot launched later will have: the services are built before the bot (the bot needs
 * them), so the premium side reaches the bot's client when it first calls, never at construction.
 */
export function starsApiOnceLaunched(apiOf: () => Api | undefined): StarsApi {
  const api = (): StarsApi => {
    const launched = apiOf();
    if (!launched) throw new Error('the Telegram bot is not running');
    return starsApiFor(launched);
  };
  return {
    createInvoiceLink: (invoice) => api().createInvoiceLink(invoice),
    refund: (telegramUserId, chargeId) => api().refund(telegramUserId, chargeId),
  };
}

export function starsApiFor(api: Api): StarsApi {
  return {
    createInvoiceLink: (invoice) =>
      api.createInvoiceLink(
        invoice.title,
        invoice.description,
        invoice.payload,
        '',
        'XTR',
        [{ label: invoice.title, amount: invoice.stars }],
        {
          ...(invoice.subscriptionPeriod ? { subscription_period: invoice.subscriptionPeriod } : {}),
        },
      ),
    refund: async (telegramUserId, chargeId) => {
      await api.refundStarPayment(telegramUserId, chargeId);
    },
  };
}

const payloadPrefix = 'iskra:';

/** The invoice payload names our pending payment row; Telegram hands it back with the checkout and payment. */
export const invoicePayload = (paymentId: number) => `${payloadPrefix}${paymentId}`;

export function paymentIdOf(payload: string): number | null {
  if (!payload.startsWith(payloadPrefix)) return null;
  const id = Number(payload.slice(payloadPrefix.length));
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** What Telegram tells the bot, reduced to what settling needs. */
export interface StarsCheckout {
  payload: string;
  telegramUserId: number;
  currency: string;
  totalAmount: number;
}

export interface StarsPayment extends StarsCheckout {
  chargeId: string;
  /** A renewal of a Stars subscription (not its first payment) extends again under a new charge id. */
  isRenewal: boolean;
}
