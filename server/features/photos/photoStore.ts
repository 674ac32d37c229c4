import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ProcessedPhoto } from './photoPipeline.ts';

/** Our names only: 128 random bits in hex, `.jpg`, or `.thumb.jpg` for the list-size copy. */
export const uploadNamePattern = /^[0-9a-f]{32}(\.thumb)?\.jpg$/;

export function thumbNameOf(fileName: string): string {
  return fileName.replace(/\.jpg$/, '.thumb.jpg');
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

  /** Writes a photo and its thumbnail under a fresh random name; `wx` never overwrites an existing file. */
  async save(processed: ProcessedPhoto): Promise<string> {
    await this.ensureDir();
    const fileName = `${randomBytes(16).toString('hex')}.jpg`;
    await writeFile(path.join(this.dir, fileName), processed.photo, { flag: 'wx' });
    try {
      await writeFile(path.join(this.dir, thumbNameOf(fileName)), processed.thumb, { flag: 'wx' });
    } catch (error) {
      await this.remove([fileName]);
      throw error;
    }
    return fileName;
  }

  /** Removes photos and their thumbnails; a file already gone is not an error. */
  async remove(fileNames: readonly string[]): Promise<void> {
    const paths = fileNames.flatMap((name) => [this.pathOf(name), this.pathOf(thumbNameOf(name))]);
    await Promise.all(paths.map((p) => (p ? rm(p, { force: true }) : Promise.resolve())));
  }
}
