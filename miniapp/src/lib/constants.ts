/** Business constants of spec section 9. */
export const ageLimits = { min: 18, max: 100, step: 4 } as const;
export const defaultAgeRange: readonly [number, number] = [ageLimits.min, ageLimits.max];
export const genders = ['Any', 'Male', 'Female', 'Other'] as const;
export type GenderFilter = (typeof genders)[number];
export const privacyWarningMs = 3000;
export const resendCountdownSeconds = 60;
