import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { paymentResponse, plansResponse, subscriptionResponse, type Plan } from '@contract/plans.ts';
import { platform } from '../../platform/index.ts';
import { api } from '../client.ts';
import { queryKeys } from './keys.ts';

/** The premium API: plans, the own subscription, paying for a plan. */
export function usePlans() {
  return useQuery({ queryKey: queryKeys.plans(), queryFn: () => api.get('/api/plans', plansResponse) });
}

export function useSubscription() {
  return useQuery({ queryKey: queryKeys.subscription(), queryFn: () => api.get('/api/subscription', subscriptionResponse) });
}

/**
 * Creates the payment and opens it: Telegram's invoice sheet (which answers how it ended) or the payment
 * page (the web leaves for it). A paid invoice changes the subscription, the plans and the likers list.
 */
export function usePayment() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (plan: Plan) => {
      const { payment_url, invoice_url } = await api.post('/api/payment', paymentResponse, { amount: plan.price, interval: plan.interval });
      const url = invoice_url ?? payment_url;
      if (!url) throw new Error('no payment url');
      return platform().openPayment(url);
    },
    onSuccess: (outcome) => {
      if (outcome !== 'paid') return;
      // Premium shows who liked the caller; the plans (today the same for everyone) are read with the rest.
      void client.invalidateQueries({ queryKey: queryKeys.subscription() });
      void client.invalidateQueries({ queryKey: queryKeys.plans() });
      void client.invalidateQueries({ queryKey: queryKeys.likers() });
    },
  });
}
