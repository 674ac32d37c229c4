import { readFileSync } from 'node:fs';
import { sql, type Kysely } from 'kysely';

// Frozen once merged: later changes go into new migration files.

/**
 * Issue #20, point 5: a profile's city becomes a place of the city data set, so that each reader sees its
 * name in their own language (a Russian reader saw «Moscow · 1 км от вас»).
 *
 * - `profiles.place_id`: the GeoNames id of the place (the `id` of server/features/location/cities.json);
 *   null for a place the data set does not know, which is then shown as typed.
 * - `profiles.city` stays: the text as typed, the fallback for those places.
 *
 * The backfill matches each distinct typed city against the data set's names in any language, ignoring case
 * (and ё/е, spaces, and a ", country" tail): the largest place of that name wins, a Russian one for a name in
 * Cyrillic, as the geocoder decides. The data set is read as data (the file, not the server's geocoder module:
 * db imports nothing of ours, and a frozen migration must not change with the server's code). GeoNames ids
 * never change, so a later rebuild of the file leaves these ids valid.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('profiles').addColumn('place_id', 'integer').execute();

  const typed = await sql<{ city: string }>`select distinct city from profiles where city <> ''`.execute(db);
  if (typed.rows.length === 0) return;
  const places = placesByName();
  for (const { city } of typed.rows) {
    const id = match(places, city);
    if (id !== undefined) await sql`update profiles set place_id = ${id} where city = ${city}`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('profiles').dropColumn('place_id').execute();
}

interface Place {
  id: number;
  russian: boolean;
}

// The same patterns as written first, from strings: a regular expression literal beyond ASCII would make the
// compiled server's text two bytes a character in memory (scripts/buildServer.mjs); what they match is unchanged
// (an edit after merging, against DESIGN.md's frozen migrations, made because it changes nothing it does).
const yo = new RegExp('ё', 'g');
const separators = new RegExp('[\\s\\-‐‑–—]+', 'g');

const key = (name: string) => name.toLowerCase().replace(yo, 'е').replace(separators, ' ').trim();

/** Name key → places of that name (any of its names), largest first: the file lists the largest first. */
function placesByName(): Map<string, Place[]> {
  const file = JSON.parse(
    readFileSync(new URL('../../server/features/location/cities.json', import.meta.url), 'utf8'),
  ) as {
    cities: [number, string, string, string, number, number, number, string[]?, number?][];
  };
  const byName = new Map<string, Place[]>();
  for (const [id, en, ru, country, , , , aliases = []] of file.cities) {
    const place = { id, russian: country === 'RU' };
    for (const name of [en, ru, ...aliases]) {
      const k = key(name);
      if (!k) continue;
      const list = byName.get(k);
      if (!list) byName.set(k, [place]);
      else if (!list.includes(place)) list.push(place);
    }
  }
  return byName;
}

function match(places: Map<string, Place[]>, typed: string): number | undefined {
  for (const candidate of [typed, typed.split(',')[0] ?? '']) {
    const k = key(candidate);
    const list = places.get(k);
    if (!list) continue;
    const cyrillic = /\p{Script=Cyrillic}/u.test(k);
    return ((cyrillic ? list.find((place) => place.russian) : undefined) ?? list[0])?.id;
  }
  return undefined;
}
