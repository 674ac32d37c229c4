export { type Allowance, type AllowanceUse, assertAllowance } from './allowance.ts';
export {
  codesPerEmailPerDay,
  day,
  hour,
  registrationsPerIpPerDay,
  registrationsPerIpPerHour,
  resetRequestsPerIpPerDay,
  wrongCodesPerAccountPerDay,
  wrongCodesPerIpPerDay,
} from './clientLimits.ts';
export { countedRead, RateCounter, type RateRow, readWithRateCounts } from './rateCounter.ts';
