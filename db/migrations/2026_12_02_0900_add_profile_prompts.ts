import type { Kysely } from 'kysely';

// Frozen once merged: later changes go into new migration files.

/**
 * `profiles.prompts`: the profile's answered prompts (issue 38), a JSON list `[{"prompt_id", "answer"}]` of
 * at most three, in display order. Kept on the profile row rather than in a table of their own: they are
 * always read and written whole, never searched, and every read of a profile (the search card above all)
 * then gets them with the row, at no extra statement. The prompt ids name the static list in
 * server/contract/prompts.ts; no search trigger watches this column, since answers change nobody's eligibility.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('profiles')
    .addColumn('prompts', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('profiles').dropColumn('prompts').execute();
}
