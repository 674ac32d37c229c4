import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import type { Plan } from '@contract/plans.ts';
import { platform, type InvoiceOutcome } from '../../platform/index.ts';
import { ApiError } from '../ApiError.ts';
import { api, lazySchema } from '../client.ts';
import { queryKeys } from './keys.ts';

/**
 * The schemas, fetched with the call that needs them: the deck reads the subscription (the like sheet's
 * wording), and its first load carries no zod (issue 41). The subscription is checked in full after the
 * first load, its `isActive` at once.
 */
const plans = () => import('@contract/plans.ts');
const subscriptionAnswer = lazySchema(
  () => plans().then((m) => m.subscriptionResponse),
  (answer) => typeof answer.isActive === 'boolean',
);

/** The premium API: plans, the own subscription, paying for a plan, what became of a payment. */
export function usePlans() {
  return useQuery({
    queryKey: queryKeys.plans(),
    queryFn: async () => api.get('/api/plans', (await plans()).plansResponse),
  });
}

export function useSubscription() {
  return useQuery({
    queryKey: queryKeys.subscription(),
    queryFn: () => api.get('/api/subscription', subscriptionAnswer),
  });
}

/**
 * What a paid payment changes: the subscription, the user's own profile (its isActive and end_date; the
 * current_user answer carries nothing of premium), the plans, the likers list.
 */
function usePremiumChanged() {
  const client = useQueryClient();
  return useCallback(() => {
    void client.invalidateQueries({ queryKey: queryKeys.subscription() });
    void client.invalidateQueries({ queryKey: queryKeys.ownProfile() });
    void client.invalidateQueries({ queryKey: queryKeys.plans() });
    void client.invalidateQueries({ queryKey: queryKeys.likers() });
  }, [client]);
}

export interface PaymentOutcome {
  outcome: InvoiceOutcome;
  /** Our payment, to ask the server about (the sheet's "paid" comes before the bot has credited it). */
  paymentId: number | null;
}

/**
 * Creates the payment and opens it: Telegram's invoice sheet (which answers how it ended) or the payment
 * page (the web leaves for it).
 */
export function usePayment() {
  const changed = usePremiumChanged();
  return useMutation({
    mutationFn: async (plan: Plan): Promise<PaymentOutcome> => {
      const { payment_url, invoice_url, payment_id } = await api.post('/api/payment', (await plans()).paymentResponse, {
        amount: plan.price,
        interval: plan.interval,
      });
      const url = invoice_url ?? payment_url;
      if (!url) throw new Error('no payment url');
      return { outcome: await platform().openPayment(url), paymentId: payment_id ?? null };
    },
    onSuccess: ({ outcome }) => {
      if (outcome === 'paid') changed();
    },
  });
}

/** Re-asks about a pending payment after 1 s, then ever later, at most every 15 s. */
export function pendingPollDelay(answers: number): number {
  return Math.min(1000 * 1.6 ** Math.max(0, answers - 1), 15_000);
}

/**
 * `GET /api/payments/:id`: paid, pending (asked again, with backoff, until it settles) or failed; a 404
 * (unknown, or not the caller's) is an answer too, not something to retry. Once paid, what premium
 * changes is read again.
 */
export function usePaymentStatus(paymentId: number | null) {
  const changed = usePremiumChanged();
  const query = useQuery({
    queryKey: ['premium', 'payment', paymentId] as const,
    queryFn: async () =>
      api.get(`/api/payments/${paymentId}`, (await import('@contract/payments.ts')).paymentStatusResponse),
    enabled: paymentId !== null,
    refetchInterval: (q) => (q.state.data?.status === 'pending' ? pendingPollDelay(q.state.dataUpdateCount) : false),
  });
  const paid = query.data?.status === 'paid';
  useEffect(() => {
    // Once, when it turns paid.
    if (paid) changed();
  }, [paid, changed]);
  return query;
}

export const isPaymentNotFound = (error: unknown) =>
  error instanceof ApiError && (error.status === 404 || error.status === 401);
