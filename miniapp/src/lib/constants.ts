/** Business constants of spec section 9. The deck's filters and their defaults are the contract's (lib/filters.ts). */
export const ageLimits = { min: 18, max: 100, step: 4 } as const;
export const privacyWarningMs = 3000;
export const resendCountdownSeconds = 60;
