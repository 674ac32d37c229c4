import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
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

/** Every stored name of these photos: each photo, its thumbnail and its blurred copy. */
export function storedNamesOf(photos: readonly StoredPhoto[]): string[] {
  return photos.flatMap((p) => [p.fileName, thumbNameOf(p.fileName), ...(p.blurName ? [p.blurName] : [])]);
}

export function randomPhotoName(): string {
  return `${randomBytes(16).toString('hex')}.jpg`;
}

/** One stored file, ready to send. */
export interface PhotoFile {
  body: Readable;
  /** Bytes, when the store knows it up front. */
  size: number | undefined;
}

/** A stored name and when it was written, for the orphan sweep's grace period. */
export interface ListedPhotoName {
  name: string;
  writtenAt: Date;
}

/**
 * Where the photo bytes live: files under DATA_DIR/uploads (DiskPhotoStore, the default) or objects in an
 * S3-compatible bucket (S3PhotoStore, with S3_BUCKET). The database holds the names; a store holds the
 * bytes under exactly those names, and only names of `uploadNamePattern` are ever read, listed or removed.
 */
export interface PhotoStore {
  /** Writes a photo, its thumbnail and its blurred copy under fresh random names; all three or none. */
  save(processed: ProcessedPhoto): Promise<StoredPhoto>;
  /** Removes photos with their thumbnails and blurred copies; one already gone is not an error. */
  remove(photos: readonly StoredPhoto[]): Promise<void>;
  /** Removes single names (the orphan sweep); anything not ours is ignored, one already gone is not an error. */
  removeNames(names: readonly string[]): Promise<void>;
  /** One of our names, to stream; null for a name that is not ours or not stored. */
  open(name: string): Promise<PhotoFile | null>;
  /** Every stored name of ours, a page at a time (the orphan sweep checks each page against the database). */
  list(): AsyncIterable<ListedPhotoName[]>;
  /**
   * PHOTO_PUBLIC_URL: where a CDN in front of the bucket serves the same names; `/api/uploads/<name>` then
   * redirects there. Null: the app serves the bytes itself.
   */
  readonly publicUrl: string | null;
}

/**
 * The store could not be reached or refused (an outage, wrong credentials, a missing bucket): not the
 * same as a name that is not there, so the client gets a 503 to try again rather than a placeholder
 * cached for a year (server/http/errorHandler.ts turns it into `photos_unavailable`).
 */
export class PhotoStoreUnavailableError extends Error {
  constructor(
    readonly operation: string,
    cause: unknown,
  ) {
    super(`photo store ${operation} failed`, { cause });
    this.name = 'PhotoStoreUnavailableError';
  }
}
