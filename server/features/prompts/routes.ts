import { languageFromAcceptLanguage } from '../../../locales/index.ts';
import type { AppRouter } from '../../http/context.ts';
import { listPrompts } from './catalog.ts';

export function promptRoutes(router: AppRouter): void {
  /**
   * The prompts a profile may answer (the wizard and /edit_profile list them), in the reader's language:
   * the account's, or the browser's before signing in. Public: the list is the same for everyone.
   */
  router.get('/prompts', (ctx) => {
    ctx.body = listPrompts(ctx.state.auth?.language ?? languageFromAcceptLanguage(ctx.get('Accept-Language')));
  });
}
