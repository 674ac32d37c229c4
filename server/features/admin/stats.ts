import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';

export interface Stats {
  since: string;
  users: number;
  newUsers: number;
  profiles: number;
  newProfiles: number;
  matches: number;
  messages: number;
  payments: number;
  /** Roubles of web payments credited in the period (Stars are counted in payments only). */
  revenueRub: number;
  openReports: number;
}

/** What happened since `since`, and the totals, for the admins' /stats, the CLI and the weekly report. */
export async function statsSince(db: Kysely<Database>, since: Date): Promise<Stats> {
  const from = since.toISOString();
  const count = (table: 'users' | 'profiles' | 'matches' | 'messages', after?: string) => {
    let query = db.selectFrom(table).select((eb) => eb.fn.countAll<string | number>().as('n'));
    if (after !== undefined) query = query.where('created_at', '>=', after);
    return query.executeTakeFirstOrThrow().then((r) => Number(r.n));
  };
  const [users, newUsers, profiles, newProfiles, matches, messages, payments, openReports] = await Promise.all([
    count('users'),
    count('users', from),
    count('profiles'),
    count('profiles', from),
    count('matches', from),
    count('messages', from),
    db
      .selectFrom('payments')
      .select((eb) => [eb.fn.countAll<string | number>().as('n'), eb.fn.sum<string | number | null>(eb.case().when('currency', '=', 'RUB').then(eb.ref('amount')).else(0).end()).as('rub')])
      .where('status', '=', 'succeeded')
      .where('credited_at', '>=', from)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('reports')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('resolved_at', 'is', null)
      .executeTakeFirstOrThrow()
      .then((r) => Number(r.n)),
  ]);
  return { since: from, users, newUsers, profiles, newProfiles, matches, messages, payments: Number(payments.n), revenueRub: Number(payments.rub ?? 0), openReports };
}
