import { createHash } from 'node:crypto';

/** The kinds of notice sent through PostgreSQL NOTIFY, each on a channel of its own per schema. */
export type NoticeKind = 'events' | 'sessions' | 'signals';

/**
 * PostgreSQL names are at most 63 bytes: NOTIFY refuses a longer channel ("channel name too long") and
 * LISTEN truncates it, so a long DATABASE_SCHEMA (up to 63 characters, env.ts) must not go in whole.
 */
const maxChannelBytes = 63;

/**
 * The NOTIFY channel of one kind of notice for one schema, so deployments (and test runs) sharing a database
 * stay apart: `iskra_<kind>_<schema>` while that fits (readable in `pg_listening_channels()`), otherwise
 * `iskra_<kind>#` and the first 16 hex digits of md5(schema). A schema name never holds '#' (env.ts), so a
 * hashed name can never equal the readable name of another schema. The sessions channel is computed the
 * same way in SQL by the triggers of db/migrations/2026_11_24_2020_session_change_notices.ts; keep them alike.
 */
export function noticeChannel(kind: NoticeKind, schema: string): string {
  const readable = `iskra_${kind}_${schema}`;
  if (/^[a-z0-9_]+$/.test(schema) && Buffer.byteLength(readable) <= maxChannelBytes) return readable;
  return `iskra_${kind}#${createHash('md5').update(schema, 'utf8').digest('hex').slice(0, 16)}`;
}

/** A channel name as a quoted identifier for LISTEN (a hashed name holds '#'). */
export function quotedChannel(channel: string): string {
  return `"${channel.replace(/"/g, '""')}"`;
}
