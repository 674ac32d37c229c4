import { paymentResponse, plansResponse, subscriptionResponse } from '../../../../server/contract/plans.ts';
import { api } from '../client.ts';

/** The premium API (premium issue): plans, the own subscription, starting a payment. */
export const premiumQueries = {
  plans: () => api.get('/api/plans', plansResponse),
  subscription: () => api.get('/api/subscription', subscriptionResponse),
  pay: (amount: number, interval: number) => api.post('/api/payment', paymentResponse, { amount, interval }),
};
