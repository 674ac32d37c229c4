import { messageResponse } from '../../../../server/contract/accounts.ts';
import { api } from '../client.ts';

export const verificationQueries = {
  verify: (code: string) => api.post('/api/verify', messageResponse, { code }),
  resend: () => api.get('/api/send_verification_code', messageResponse),
};
