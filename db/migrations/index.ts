import type { Migration } from 'kysely';
import * as createAccounts from './2026_11_22_0500_create_accounts.ts';
import * as createProfiles from './2026_11_22_0530_create_profiles.ts';
import * as createDiscovery from './2026_11_22_0630_create_discovery.ts';
import * as createChat from './2026_11_22_0715_create_chat.ts';
import * as addTelegramGoogle from './2026_11_22_0720_add_telegram_google.ts';
import * as createNotifications from './2026_11_22_0730_create_notifications.ts';
import * as discoveryIndexes from './2026_11_22_0740_discovery_indexes.ts';
import * as createPayments from './2026_11_22_0750_create_payments.ts';
import * as opsJobs from './2026_11_22_1410_ops_jobs.ts';
import * as searchChanges from './2026_11_23_1500_search_changes.ts';
import * as trackSeenMarks from './2026_11_24_0900_track_seen_marks.ts';
import * as codePurposes from './2026_11_24_1200_code_purposes.ts';
import * as sessionDevices from './2026_11_24_1230_session_devices.ts';
import * as cityPlaceIds from './2026_11_24_1410_city_place_ids.ts';
import * as emailNotifications from './2026_11_24_1420_email_notifications.ts';
import * as messageKeysDepartures from './2026_11_24_1430_message_keys_departures.ts';
import * as referrals from './2026_11_24_1430_referrals.ts';
import * as addJobSlots from './2026_11_24_1910_add_job_slots.ts';
import * as searchPools from './2026_11_24_2010_search_pools.ts';
import * as sessionChangeNotices from './2026_11_24_2020_session_change_notices.ts';
import * as unloggedCaches from './2026_11_24_2030_unlogged_caches.ts';
import * as poolCheckedChanges from './2026_11_25_0220_pool_checked_changes.ts';
import * as searchStripes from './2026_11_28_1500_search_stripes.ts';
import * as rateCounterPrevious from './2026_11_29_1200_rate_counter_previous.ts';
import * as reportEvidence from './2026_11_29_1210_report_evidence.ts';
import * as createSessionHandovers from './2026_12_01_1000_create_session_handovers.ts';
import * as webPush from './2026_12_01_1100_web_push.ts';
import * as typingMarks from './2026_12_02_0900_typing_marks.ts';
import * as addProfilePrompts from './2026_12_02_0900_add_profile_prompts.ts';
import * as addUsernameShares from './2026_12_02_0900_add_username_shares.ts';
import * as addLikeMessagesUndos from './2026_12_02_0900_add_like_messages_undos.ts';
import * as profileActivity from './2026_12_01_1100_profile_activity.ts';
import * as photoTrust from './2026_12_03_0900_photo_trust.ts';
import * as verifiedSearchStamp from './2026_12_03_1000_verified_search_stamp.ts';
import * as plainSwipeFunction from './2026_12_04_0900_plain_swipe_function.ts';
import * as plainSwipeWholeRead from './2026_12_05_0900_plain_swipe_whole_read.ts';
import * as sessionSwipeFunction from './2026_12_06_0900_session_swipe_function.ts';

/**
 * Every migration, by its sortable name. Listed statically rather than read from the folder so that
 * the same list runs under tsx, vitest and a bundler alike. Append only: migrations are frozen once merged.
 */
export const migrations: Record<string, Migration> = {
  '2026_11_22_0500_create_accounts': createAccounts,
  '2026_11_22_0530_create_profiles': createProfiles,
  '2026_11_22_0630_create_discovery': createDiscovery,
  '2026_11_22_0715_create_chat': createChat,
  '2026_11_22_0720_add_telegram_google': addTelegramGoogle,
  '2026_11_22_0730_create_notifications': createNotifications,
  '2026_11_22_0740_discovery_indexes': discoveryIndexes,
  '2026_11_22_0750_create_payments': createPayments,
  '2026_11_22_1410_ops_jobs': opsJobs,
  '2026_11_23_1500_search_changes': searchChanges,
  '2026_11_24_0900_track_seen_marks': trackSeenMarks,
  '2026_11_24_1200_code_purposes': codePurposes,
  '2026_11_24_1230_session_devices': sessionDevices,
  '2026_11_24_1410_city_place_ids': cityPlaceIds,
  '2026_11_24_1420_email_notifications': emailNotifications,
  '2026_11_24_1430_message_keys_departures': messageKeysDepartures,
  '2026_11_24_1430_referrals': referrals,
  '2026_11_24_1910_add_job_slots': addJobSlots,
  '2026_11_24_2010_search_pools': searchPools,
  '2026_11_24_2020_session_change_notices': sessionChangeNotices,
  '2026_11_24_2030_unlogged_caches': unloggedCaches,
  '2026_11_25_0220_pool_checked_changes': poolCheckedChanges,
  '2026_11_28_1500_search_stripes': searchStripes,
  '2026_11_29_1200_rate_counter_previous': rateCounterPrevious,
  '2026_11_29_1210_report_evidence': reportEvidence,
  '2026_12_01_1000_create_session_handovers': createSessionHandovers,
  '2026_12_01_1100_web_push': webPush,
  '2026_12_02_0900_typing_marks': typingMarks,
  '2026_12_02_0900_add_profile_prompts': addProfilePrompts,
  '2026_12_02_0900_add_username_shares': addUsernameShares,
  '2026_12_02_0900_add_like_messages_undos': addLikeMessagesUndos,
  '2026_12_01_1100_profile_activity': profileActivity,
  '2026_12_03_0900_photo_trust': photoTrust,
  '2026_12_03_1000_verified_search_stamp': verifiedSearchStamp,
  '2026_12_04_0900_plain_swipe_function': plainSwipeFunction,
  '2026_12_05_0900_plain_swipe_whole_read': plainSwipeWholeRead,
  '2026_12_06_0900_session_swipe_function': sessionSwipeFunction,
};
