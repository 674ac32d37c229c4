import type { AppContext } from './context.ts';

export interface CookiePolicy {
  /** True when PUBLIC_URL is https: cookies are then Secure and take the `__Host-` prefix. */
  secure: boolean;
}

export function cookieNames(policy: CookiePolicy) {
  // `__Host-` cookies cannot be set by a sibling subdomain or for another path (cookie tossing).
  const prefix = policy.secure ? '__Host-' : '';
  return { session: `${prefix}iskra_session`, csrf: `${prefix}iskra_csrf`, device: `${prefix}iskra_device` };
}

export function setHttpOnlyCookie(
  ctx: AppContext,
  policy: CookiePolicy,
  name: string,
  value: string,
  expires?: Date,
): void {
  // TLS usually ends at a proxy in front of us; PUBLIC_URL says whether the browser sees https.
  if (policy.secure) ctx.cookies.secure = true;
  ctx.cookies.set(name, value, {
    httpOnly: true,
    sameSite: 'lax',
    secure: policy.secure,
    path: '/',
    overwrite: true,
    ...(expires ? { expires } : {}),
  });
}

export function clearCookie(ctx: AppContext, policy: CookiePolicy, name: string): void {
  if (policy.secure) ctx.cookies.secure = true;
  ctx.cookies.set(name, '', {
    httpOnly: true,
    sameSite: 'lax',
    secure: policy.secure,
    path: '/',
    maxAge: 0,
    overwrite: true,
  });
}
