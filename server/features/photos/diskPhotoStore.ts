import { createReadStream } from 'node:fs';
import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ProcessedPhoto } from './photoPipeline.ts';
import {
  randomPhotoName,
  storedNamesOf,
  thumbNameOf,
  uploadNamePattern,
  type ListedPhotoName,
  type PhotoFile,
  type PhotoStore,
  type StoredPhoto,
} from './photoStore.ts';

const listPageSize = 400;

/** Photo files under DATA_DIR/uploads: the default, and all one machine needs. */
export class DiskPhotoStore implements PhotoStore {
  readonly publicUrl = null;

  constructor(readonly dir: string) {}

  async ensureDir(): Promise<void> {
    await mkdir(this.dir, { recursive: true });
  }

  /** The full path of one of our names, or null for anything else (so `../` can never leave the folder). */
  pathOf(fileName: string): string | null {
    return uploadNamePattern.test(fileName) ? path.join(this.dir, fileName) : null;
  }

  /** `wx` never overwrites. */
  async save(processed: ProcessedPhoto): Promise<StoredPhoto> {
    await this.ensureDir();
    const stored = { fileName: randomPhotoName(), blurName: randomPhotoName() };
    try {
      await writeFile(path.join(this.dir, stored.fileName), processed.photo, { flag: 'wx' });
      await writeFile(path.join(this.dir, thumbNameOf(stored.fileName)), processed.thumb, { flag: 'wx' });
      await writeFile(path.join(this.dir, stored.blurName), processed.blurred, { flag: 'wx' });
    } catch (error) {
      await this.remove([stored]);
      throw error;
    }
    return stored;
  }

  async remove(photos: readonly StoredPhoto[]): Promise<void> {
    await this.removeNames(storedNamesOf(photos));
  }

  async removeNames(names: readonly string[]): Promise<void> {
    await Promise.all(
      names.map((name) => this.pathOf(name)).map((p) => (p ? rm(p, { force: true }) : Promise.resolve())),
    );
  }

  async open(name: string): Promise<PhotoFile | null> {
    const file = this.pathOf(name);
    const info = file ? await stat(file).catch(() => null) : null;
    if (!file || !info?.isFile()) return null;
    return { body: createReadStream(file), size: info.size };
  }

  async *list(): AsyncIterable<ListedPhotoName[]> {
    let names: string[];
    try {
      names = (await readdir(this.dir)).filter((n) => uploadNamePattern.test(n));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (let i = 0; i < names.length; i += listPageSize) {
      const page: ListedPhotoName[] = [];
      for (const name of names.slice(i, i + listPageSize)) {
        // Gone since the listing (removed by a deletion meanwhile): nothing left to sweep.
        const info = await stat(path.join(this.dir, name)).catch(() => null);
        if (info) page.push({ name, writtenAt: info.mtime });
      }
      yield page;
    }
  }
}
