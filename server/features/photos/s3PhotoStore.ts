import { Readable } from 'node:stream';
import type * as S3 from '@aws-sdk/client-s3';
import type { ProcessedPhoto } from './photoPipeline.ts';
import {
  PhotoStoreUnavailableError,
  randomPhotoName,
  storedNamesOf,
  thumbNameOf,
  uploadNamePattern,
  type ListedPhotoName,
  type PhotoFile,
  type PhotoStore,
  type StoredPhoto,
} from './photoStore.ts';

/** S3_* and PHOTO_PUBLIC_URL, parsed (server/env.ts); the composition root and tests build one. */
export interface PhotoBucketSettings {
  bucket: string;
  /** Unset: AWS's own endpoint for the region. */
  endpoint?: string | undefined;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `host/bucket/key` instead of `bucket.host/key`: what most self-hosted S3-compatible stores need. */
  forcePathStyle: boolean;
  /**
   * A folder in the bucket for this deployment (S3_PREFIX, no slash at either end): every key is
   * `<prefix>/<name>`, and listing (so the orphan sweep) sees only it. Unset: the bucket's root.
   */
  prefix?: string | undefined;
  /** A CDN in front of the bucket serving the same names (with the prefix); the app then redirects to it. */
  publicUrl?: string | undefined;
  /** Keys per ListObjectsV2 page: S3's own maximum unless a test wants to see several pages. */
  listPageSize?: number | undefined;
}

/**
 * Sockets per S3 host. The SDK's default of 50 lets 50 slow photo readers (each GetObject holds its socket
 * until the client has read the photo) hold every socket while uploads and deletions queue behind them.
 */
const maxSockets = 256;

/** Enough for one profile's photos (6 x 3 objects) in one go. */
const deletesAtOnce = 18;

/** What S3 stores with each object, so a CDN serving the bucket directly answers like /api/uploads does. */
const objectHeaders = { ContentType: 'image/jpeg', CacheControl: 'public, max-age=31536000, immutable' } as const;

/**
 * Photos as objects in an S3-compatible bucket, under the same names as the files on disk (at the bucket's
 * root, or under S3_PREFIX), so several app processes on several machines see the same photos.
 *
 * The client is AWS's own `@aws-sdk/client-s3` rather than `minio`: it is the official, most used and most
 * closely maintained S3 client, and it speaks to any S3-compatible store (MinIO, Ceph, Yandex Object
 * Storage and the like) through `endpoint` and `forcePathStyle`. `minio` would do the same job with fewer
 * packages, but nothing here needs what it adds, so there was no strong reason to leave the official one.
 * (Its releases after early January 2027 will need Node 22: package-lock.json holds one that runs on
 * Node 20, this project's floor, which prints a one-line warning about it at start.)
 */
export class S3PhotoStore implements PhotoStore {
  readonly publicUrl: string | null;
  /**
   * The SDK and its client, loaded when the first store is made: the SDK adds about 25 MB to the process
   * (issue 41), and most deployments keep photos on disk and never need it.
   */
  private readonly sdk: Promise<{ s3: typeof S3; client: S3.S3Client }>;
  private readonly bucket: string;
  private readonly listPageSize: number;
  /** `''` or `<prefix>/`, put before every name to make its key. */
  private readonly keyPrefix: string;

  constructor(settings: PhotoBucketSettings) {
    this.bucket = settings.bucket;
    this.keyPrefix = settings.prefix ? `${settings.prefix.replace(/^\/+|\/+$/g, '')}/` : '';
    const publicUrl = settings.publicUrl?.replace(/\/+$/, '');
    // The CDN serves the bucket as it is: the redirect's address holds the prefix like the key does.
    this.publicUrl = publicUrl ? `${publicUrl}${this.keyPrefix ? `/${this.keyPrefix.slice(0, -1)}` : ''}` : null;
    this.listPageSize = settings.listPageSize ?? 1000;
    const options: S3.S3ClientConfig = {
      region: settings.region,
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      forcePathStyle: settings.forcePathStyle,
      credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
      // Checksums only where S3 requires them: since early 2025 the SDK by default adds CRC32 checksum
      // headers to every write (and aws-chunked framing to streamed ones), which a number of S3-compatible
      // stores, or their older releases, refuse; every one of them takes the plain requests. s3rver in the
      // tests copes with both.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      // A bucket that stops answering must not hold a request (or an upload's memory) for minutes.
      requestHandler: {
        connectionTimeout: 5_000,
        requestTimeout: 20_000,
        httpAgent: { keepAlive: true, maxSockets },
        httpsAgent: { keepAlive: true, maxSockets },
      },
    };
    this.sdk = import('@aws-sdk/client-s3').then((s3) => ({ s3, client: new s3.S3Client(options) }));
    // A failed load is reported by the first call that needs the SDK, not as an unhandled rejection now.
    this.sdk.catch(() => undefined);
  }

  /**
   * The three objects go up together; if any fails, the others are removed and the store counts as
   * unavailable. No `If-None-Match: *` (not every S3-compatible store knows it): a name is 128 random bits.
   */
  async save(processed: ProcessedPhoto): Promise<StoredPhoto> {
    const stored = { fileName: randomPhotoName(), blurName: randomPhotoName() };
    const writes: [string, Buffer][] = [
      [stored.fileName, processed.photo],
      [thumbNameOf(stored.fileName), processed.thumb],
      [stored.blurName, processed.blurred],
    ];
    const { s3, client } = await this.sdk;
    const results = await Promise.allSettled(
      writes.map(([key, body]) =>
        client.send(
          new s3.PutObjectCommand({ Bucket: this.bucket, Key: this.keyPrefix + key, Body: body, ...objectHeaders }),
        ),
      ),
    );
    const failed = results.find((r) => r.status === 'rejected');
    if (failed) {
      await this.remove([stored]).catch(() => undefined);
      throw new PhotoStoreUnavailableError('write', failed.reason);
    }
    return stored;
  }

  async remove(photos: readonly StoredPhoto[]): Promise<void> {
    await this.removeNames(storedNamesOf(photos));
  }

  /**
   * One DeleteObject per name (S3 answers 204 for a key that is not there): DeleteObjects needs a checksum
   * header not every store accepts. A few at a time, so a page of orphans does not queue a thousand requests
   * behind the client's sockets.
   */
  async removeNames(names: readonly string[]): Promise<void> {
    const ours = names.filter((name) => uploadNamePattern.test(name));
    try {
      const { s3, client } = await this.sdk;
      for (let i = 0; i < ours.length; i += deletesAtOnce) {
        await Promise.all(
          ours
            .slice(i, i + deletesAtOnce)
            .map((key) => client.send(new s3.DeleteObjectCommand({ Bucket: this.bucket, Key: this.keyPrefix + key }))),
        );
      }
    } catch (error) {
      throw new PhotoStoreUnavailableError('delete', error);
    }
  }

  async open(name: string): Promise<PhotoFile | null> {
    if (!uploadNamePattern.test(name)) return null;
    const { s3, client } = await this.sdk;
    try {
      const object = await client.send(new s3.GetObjectCommand({ Bucket: this.bucket, Key: this.keyPrefix + name }));
      if (!(object.Body instanceof Readable)) throw new Error('the object body is not a Node stream');
      return { body: object.Body, size: object.ContentLength };
    } catch (error) {
      if (error instanceof s3.NoSuchKey) return null;
      throw new PhotoStoreUnavailableError('read', error);
    }
  }

  /** ListObjectsV2 page by page (continuation tokens), our names only. */
  async *list(): AsyncIterable<ListedPhotoName[]> {
    const { s3, client } = await this.sdk;
    let token: string | undefined;
    do {
      let page;
      try {
        page = await client.send(
          new s3.ListObjectsV2Command({
            Bucket: this.bucket,
            MaxKeys: this.listPageSize,
            ContinuationToken: token,
            ...(this.keyPrefix ? { Prefix: this.keyPrefix } : {}),
          }),
        );
      } catch (error) {
        throw new PhotoStoreUnavailableError('list', error);
      }
      // An object whose age is not given is never swept: the grace period could not be checked.
      // Names only, the prefix cut off; a key in a deeper folder under the prefix does not match a name.
      yield (page.Contents ?? []).flatMap(({ Key, LastModified }) => {
        const name = Key?.startsWith(this.keyPrefix) ? Key.slice(this.keyPrefix.length) : undefined;
        return name && LastModified && uploadNamePattern.test(name) ? [{ name, writtenAt: LastModified }] : [];
      });
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }
}
