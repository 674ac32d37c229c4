import type { Env } from '../../env.ts';
import { AddressRanges, yookassaNotificationRanges } from './addressRanges.ts';
import { YooKassaClient } from './yookassa.ts';

/** YooKassa as the environment configures it (PAYMENT_PROVIDER=yookassa), for the server and the jobs. */
export function yookassaFromEnv(
  env: Pick<
    Env,
    | 'PAYMENT_PROVIDER'
    | 'YOOKASSA_SHOP_ID'
    | 'YOOKASSA_SECRET_KEY'
    | 'YOOKASSA_API_URL'
    | 'YOOKASSA_ALLOWED_IPS'
    | 'PUBLIC_URL'
  >,
) {
  if (env.PAYMENT_PROVIDER !== 'yookassa' || !env.YOOKASSA_SHOP_ID || !env.YOOKASSA_SECRET_KEY) return undefined;
  return {
    client: new YooKassaClient(env.YOOKASSA_API_URL, env.YOOKASSA_SHOP_ID, env.YOOKASSA_SECRET_KEY),
    returnUrl: new URL('/confirm', env.PUBLIC_URL).toString(),
    allowedRanges: new AddressRanges(env.YOOKASSA_ALLOWED_IPS ?? yookassaNotificationRanges),
  };
}
