import { maxNameLength } from '@contract/profiles.ts';
import { platform } from '../../../platform/platform.ts';

/** The first name Telegram gives (init data `first_name`), cut to the profile's limit; empty on the web. */
export function prefilledName(): string {
  return (platform().userFirstName() ?? '').trim().slice(0, maxNameLength);
}
