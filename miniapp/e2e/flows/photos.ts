import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { createPerson, type Person, type PersonOptions } from '../../../server/test/people.ts';
import type { Site } from '../harness.ts';

/** Real pictures behind a person's photo names (createPerson only writes the names), each its own colour. */
export async function withPhotos(
  site: Site,
  options: PersonOptions & { photos: number },
): Promise<Person & { photos: string[] }> {
  const person = await createPerson(site.app, options);
  const rows = await site.app.database.db
    .selectFrom('photos')
    .select('file_name')
    .where('profile_id', '=', person.profileId)
    .orderBy('position')
    .execute();
  const uploads = path.join(site.app.database.dataDir, 'uploads');
  mkdirSync(uploads, { recursive: true });
  for (const [i, row] of rows.entries()) {
    const hue = (person.profileId * 67 + i * 110) % 360;
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="852"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue},70%,70%)"/><stop offset="1" stop-color="hsl(${(hue + 60) % 360},60%,35%)"/></linearGradient></defs><rect width="640" height="852" fill="url(#g)"/><circle cx="320" cy="330" r="150" fill="hsl(${hue},40%,88%)" opacity="0.55"/><rect x="170" y="520" width="300" height="330" rx="150" fill="hsl(${hue},40%,88%)" opacity="0.45"/></svg>`;
    writeFileSync(path.join(uploads, row.file_name), await sharp(Buffer.from(svg)).jpeg({ quality: 80 }).toBuffer());
  }
  return { ...person, photos: rows.map((r) => r.file_name) };
}
