import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { rm, stat, utimes } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, GetObjectCommand, ListObjectsV2Command, NoSuchKey, S3Client } from '@aws-sdk/client-s3';
import type { PhotoBucketSettings } from '../features/photos/s3PhotoStore.ts';

const s3rverCli = createRequire(import.meta.url).resolve('s3rver/bin/s3rver.js');

/** s3rver's one account: it checks every request's AWS signature against these keys. */
const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/**
 * A real S3 server on loopback (the `s3rver` package, objects kept in its own temp folder): the app's
 * `@aws-sdk/client-s3` speaks the whole protocol to it, signatures included. Each test makes its own
 * bucket; `client` reads the bucket behind the app's back, as an operator's tool would.
 *
 * It runs in a process of its own, with Node's `--openssl-legacy-provider`: s3rver seals ListObjectsV2
 * continuation tokens with DES, which OpenSSL 3 offers only through that process-wide switch, and the tests'
 * own process must not run with it.
 */
export class S3StandIn {
  private readonly directory = mkdtempSync(path.join(tmpdir(), 'iskra-s3-'));
  private server: ChildProcess | undefined;
  private endpointUrl = '';
  private s3: S3Client | undefined;

  async start(): Promise<void> {
    const server = spawn(
      process.execPath,
      ['--openssl-legacy-provider', s3rverCli, '-d', this.directory, '-a', '127.0.0.1', '-p', '0', '--silent'],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    this.server = server;
    const port = await new Promise<number>((resolve, reject) => {
      let printed = '';
      server.stdout.on('data', (chunk: Buffer) => {
        printed += chunk.toString();
        const listening = /S3rver listening on [\d.]+:(\d+)/.exec(printed);
        if (listening) resolve(Number(listening[1]));
      });
      server.once('exit', (code) => reject(new Error(`s3rver exited with ${String(code)} before listening`)));
    });
    this.endpointUrl = `http://127.0.0.1:${port}`;
    this.s3 = new S3Client({ endpoint: this.endpointUrl, region: 'us-east-1', forcePathStyle: true, credentials });
  }

  get endpoint(): string {
    return this.endpointUrl;
  }

  get client(): S3Client {
    if (!this.s3) throw new Error('S3StandIn not started');
    return this.s3;
  }

  /** The settings of a bucket nobody else uses: made now, or only named (`create: false`) to stand for a missing one. */
  async bucket(options: { create?: boolean } & Partial<PhotoBucketSettings> = {}): Promise<PhotoBucketSettings> {
    const { create = true, ...extra } = options;
    const name = `photos-${randomBytes(6).toString('hex')}`;
    if (create) await this.client.send(new CreateBucketCommand({ Bucket: name }));
    return {
      bucket: name,
      endpoint: this.endpointUrl,
      region: 'us-east-1',
      ...credentials,
      forcePathStyle: true,
      ...extra,
    };
  }

  /** Every key in the bucket, sorted. */
  async keys(bucket: string): Promise<string[]> {
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }));
      keys.push(...(page.Contents ?? []).flatMap((o) => (o.Key ? [o.Key] : [])));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return keys.sort();
  }

  /** An object's bytes, or null when there is no such key. */
  async object(bucket: string, key: string): Promise<Buffer | null> {
    try {
      const object = await this.client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      return Buffer.from((await object.Body?.transformToByteArray()) ?? []);
    } catch (error) {
      if (error instanceof NoSuchKey) return null;
      throw error;
    }
  }

  /**
   * Makes an object look written at `when`, as a disk test sets a file's mtime: s3rver keeps each object
   * as `<bucket>/<key>._S3rver_object` and reports that file's mtime as LastModified.
   */
  async backdate(bucket: string, key: string, size: number, when: Date): Promise<void> {
    // s3rver answers a PutObject once it has read the body, before its own file stream has opened the file
    // and written it: wait until the file holds the whole body, or the late write would undo the new mtime.
    const file = path.join(this.directory, bucket, `${key}._S3rver_object`);
    while ((await stat(file).catch(() => null))?.size !== size) await new Promise((resolve) => setTimeout(resolve, 5));
    await utimes(file, when, when);
  }

  async stop(): Promise<void> {
    this.s3?.destroy();
    const server = this.server;
    if (server && server.exitCode === null && server.signalCode === null) {
      const exited = once(server, 'exit');
      server.kill();
      await exited;
    }
    await rm(this.directory, { recursive: true, force: true });
  }
}
