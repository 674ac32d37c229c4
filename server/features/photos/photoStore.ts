import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ProcessedPhoto } from './photoPipeline.ts';

/** Our names only: 128 random bits in hex, `.jpg`, or `.thumb.jpg` for the list-size copy. */
export const uploadNamePattern = /^[0-9a-f]{32}(\.thumb)?\.jpg$/;

export function thumbNameOf(fileName: string): string {
  return fileName.replace(/\.jpg$/, '.thumb.jpg');
}

/** A stored photo: its name (the thumbnail's follows from it) and the blurred copy's unrelated name. */
export interface StoredPhoto {
  fileName: string;
  blurName: string | null;
}

/** Photo files under DATA_DIR/uploads. The database holds the names; this holds the bytes. */
export class PhotoStore {
  constructor(readonly dir: string) {}

  async ensureDir(): Promise<void> {
    await mkdir(this.dir, { recursive: true });
  }

  /** The full path of one of our names, or null for anything else (so `../` can never leave the folder). */
  pathOf(fileName: string): string | null {
    return uploadNamePattern.test(fileName) ? path.join(this.dir, fileName) : null;
  }

  /** Writes a photo, its thumbnail and its blurred copy under fresh random names; `wx` never overwrites. */
  async save(processed: ProcessedPhoto): Promise<StoredPhoto> {
    await this.ensureDir();
    const stored = { fileName: randomName(), blurName: randomName() };
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

  /** Removes photos with their thumbnails and blurred copies; a file already gone is not an error. */
  async remove(photos: readonly StoredPhoto[]): Promise<void> {
    const names = photos.flatMap((p) => [p.fileName, thumbNameOf(p.fileName), ...(p.blurName ? [p.blurName] : [])]);
    await Promise.all(names.map((name) => this.pathOf(name)).map((p) => (p ? rm(p, { force: true }) : Promise.resolve())));
  }
}

function randomName(): string {
  return `${randomBytes(16).toString('hex')}.jpg`;
}
