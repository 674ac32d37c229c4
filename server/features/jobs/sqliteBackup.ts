import { mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { drivers } from '../../../db/client.ts';
import { addSeconds } from '../../clock.ts';
import type { JobContext, JobCounts } from './job.ts';

export const backupKeepDays = 7;
const backupName = /^iskra-(\d{8}T\d{6}Z)\.sqlite$/;

export function backupDir(dataDir: string): string {
  return path.join(dataDir, 'backups');
}

/** `iskra-20261122T031500Z.sqlite`: sorts by time, and the time is read back from the name when pruning. */
function nameFor(at: Date): string {
  return `iskra-${at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}Z$/, 'Z')}.sqlite`;
}

function timeOf(name: string): number | null {
  const stamp = backupName.exec(name)?.[1];
  if (!stamp) return null;
  const iso = `${stamp.slice(0, 4)}-${stamp.slice(4, 6)}-${stamp.slice(6, 8)}T${stamp.slice(9, 11)}:${stamp.slice(11, 13)}:${stamp.slice(13, 15)}Z`;
  return Date.parse(iso);
}

/**
 * Turns the copy into a single self-contained file (the live database's WAL mode would otherwise travel with
 * it and leave -wal/-shm files beside it) and runs SQLite's full integrity check on it.
 */
export function checkBackup(file: string): string {
  const copy = new (drivers.sqlite())(file, { fileMustExist: true });
  try {
    copy.pragma('journal_mode = DELETE');
    return copy.pragma('integrity_check', { simple: true }) as string;
  } finally {
    copy.close();
  }
}

/**
 * The nightly copy of the SQLite file through the online backup API (a consistent snapshot while the app
 * keeps writing), checked for integrity after writing (a bad copy is removed and the run fails, so the
 * admins see it), and copies older than a week removed. PostgreSQL is backed up by its own tools (pg_dump,
 * see docs/operations.md); there the job does nothing.
 */
export async function backupSqlite({ sqlite, dataDir, clock }: JobContext): Promise<JobCounts> {
  if (!sqlite) return { written: 0, removed: 0 };
  const dir = backupDir(dataDir);
  await mkdir(dir, { recursive: true });
  const now = clock.now();
  const file = path.join(dir, nameFor(now));
  await sqlite.backup(file);
  const integrity = checkBackup(file);
  if (integrity !== 'ok') {
    await rm(file, { force: true });
    throw new Error(`backup failed its integrity check: ${integrity}`);
  }
  const oldest = addSeconds(now, -backupKeepDays * 24 * 3600).getTime();
  let removed = 0;
  for (const name of await readdir(dir)) {
    const time = timeOf(name);
    if (time !== null && time < oldest) {
      await rm(path.join(dir, name), { force: true });
      removed += 1;
    }
  }
  return { written: 1, removed };
}
