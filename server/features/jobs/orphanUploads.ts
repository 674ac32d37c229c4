import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { addSeconds } from '../../clock.ts';
import { thumbNameOf, uploadNamePattern } from '../photos/photoStore.ts';
import type { JobContext, JobCounts } from './job.ts';
import { findPhotosNaming } from './repository.ts';

const batchSize = 400;

/**
 * Photo files no row names: left by an upload whose transaction failed, or a crash between the commit of a
 * deletion and the removal of its files. Only files older than a day go, so an upload being written right
 * now (its row not yet committed) is never touched. Names are checked against the database in batches.
 */
export async function deleteOrphanUploads({ db, clock, photos }: JobContext): Promise<JobCounts> {
  const dir = photos.dir;
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => uploadNamePattern.test(n));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { checked: 0, deleted: 0 };
    throw error;
  }
  const cutoff = addSeconds(clock.now(), -24 * 3600).getTime();
  let deleted = 0;
  for (let i = 0; i < names.length; i += batchSize) {
    const batch = names.slice(i, i + batchSize);
    // A thumbnail belongs to the photo of the same stem.
    const owners = batch.map((n) => n.replace(/\.thumb\.jpg$/, '.jpg'));
    const rows = await findPhotosNaming(db, owners, batch);
    const referenced = new Set(rows.flatMap((r) => [r.file_name, thumbNameOf(r.file_name), ...(r.blur_name ? [r.blur_name] : [])]));
    for (const name of batch) {
      if (referenced.has(name)) continue;
      const file = path.join(dir, name);
      const info = await stat(file).catch(() => null);
      if (!info || info.mtimeMs > cutoff) continue;
      await rm(file, { force: true });
      deleted += 1;
    }
  }
  return { checked: names.length, deleted };
}
