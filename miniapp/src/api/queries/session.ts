import {
  currentUserResponse,
  messageResponse,
  sessionResponse,
  type CurrentUserResponse,
} from '../../../../server/contract/accounts.ts';
import { api } from '../client.ts';

/** Accounts and sessions (server/features/accounts). */
export const sessionQueries = {
  currentUser: (): Promise<CurrentUserResponse> => api.get('/api/current_user', currentUserResponse),
  login: (email: string, password: string) => api.post('/api/login', sessionResponse, { email, password }),
  register: (email: string, password: string) => api.post('/api/register', sessionResponse, { email, password }),
  logout: () => api.post('/api/logout', messageResponse),
  googleLogin: (idToken: string) => api.post('/api/googlelogin', messageResponse.partial(), { id_token: idToken }),
  /** The signed user object Telegram's Login Widget hands over, posted as is (the server checks its hash). */
  telegramWidgetLogin: (signed: Record<string, string | number>) => api.post('/api/auth', sessionResponse, signed),
};
