import { addSeconds } from '../../clock.ts';
import { storedNamesOf } from '../photos/index.ts';
import type { JobContext, JobCounts } from './job.ts';
import { findPhotosNaming } from './repository.ts';

/**
 * Photo files (or bucket objects) no row names: left by an upload whose transaction failed, or a crash
 * between the commit of a deletion and the removal of its files. Only those written over a day ago go, so
 * an upload being written right now (its row not yet committed) is never touched. The store is listed a
 * page at a time (a folder, or ListObjectsV2 with continuation), each page checked against the database.
 */
export async function deleteOrphanUploads({ db, clock, photos, signal }: JobContext): Promise<JobCounts> {
  const cutoff = addSeconds(clock.now(), -24 * 3600).getTime();
  let checked = 0;
  let deleted = 0;
  for await (const page of photos.list()) {
    // Between pages: a stopping process ends the sweep here; the next run starts it over.
    signal?.throwIfAborted();
    checked += page.length;
    if (page.length === 0) continue;
    const names = page.map((p) => p.name);
    // A thumbnail belongs to the photo of the same stem.
    const owners = names.map((n) => n.replace(/\.thumb\.jpg$/, '.jpg'));
    const rows = await findPhotosNaming(db, owners, names);
    const referenced = new Set(storedNamesOf(rows.map((r) => ({ fileName: r.file_name, blurName: r.blur_name }))));
    const orphans = page
      .filter(({ name, writtenAt }) => !referenced.has(name) && writtenAt.getTime() <= cutoff)
      .map((p) => p.name);
    await photos.removeNames(orphans);
    deleted += orphans.length;
  }
  return { checked, deleted };
}
