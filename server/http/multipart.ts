import type { IncomingMessage } from 'node:http';
import { Writable } from 'node:stream';
import formidable, { errors as formidableErrors } from 'formidable';
import { AppError, badRequest } from '../errors.ts';
import type { AppContext } from './context.ts';

export interface MultipartLimits {
  /** File field names accepted; a file under any other name is refused. */
  fileFields: readonly string[];
  maxFiles: number;
  maxFileBytes: number;
  tooManyFiles: () => AppError;
  fileTooLarge: () => AppError;
  /** Shared by every request of the process: what all uploads together may hold in memory. */
  budget: UploadBudget;
}

/**
 * The bytes every upload in memory holds together. One request holds at most `maxFiles` x `maxFileBytes`,
 * but parallel requests would add up without bound; past the budget an upload is refused (503, try again)
 * rather than the process running out of memory. Bytes are given back when their request's response ends
 * (answered, failed or cut), since the handler works on them until then.
 */
export class UploadBudget {
  private held = 0;

  constructor(readonly maxBytes: number) {}

  /** Takes `bytes` if they fit; false, taking nothing, if they do not. */
  take(bytes: number): boolean {
    if (this.held + bytes > this.maxBytes) return false;
    this.held += bytes;
    return true;
  }

  give(bytes: number): void {
    this.held -= bytes;
  }
}

const uploadsBusy = () =>
  new AppError(503, 'uploads_busy', 'The server is busy with other uploads. Please try again in a moment.', {
    retryAfterSeconds: 5,
  });

export interface UploadedFile {
  field: string;
  bytes: Buffer;
}

export interface MultipartBody {
  /** Text fields; a repeated field keeps its last value. */
  fields: Record<string, string>;
  /** In the order they arrived, which is the order the user chose. */
  files: UploadedFile[];
}

/**
 * Reads a multipart request into memory. Every limit is checked while the body streams in and fails the
 * request the moment it is passed: a file one byte over `maxFileBytes` (formidable itself would only look
 * at a file's size once the file ended), one file too many, a file under an unknown field, the shared
 * budget spent by other uploads; so at most `maxFiles` x `maxFileBytes` is ever held by one request, and
 * the budget by all together. After a refusal formidable reads the rest of the body into
 * nothing: the client, still sending, gets the answer on a connection it can go on using (a paused request
 * would stall it until the keep-alive timeout), and Node's request timeout bounds an endless one. Nothing
 * touches the disk, so a refused, failed or aborted upload leaves nothing to clean up.
 */
export async function readMultipart(ctx: AppContext, limits: MultipartLimits): Promise<MultipartBody> {
  if (!ctx.is('multipart')) throw badRequest('invalid_input', 'Expected a multipart/form-data body');
  const fieldOf = new Map<object, string>();
  const received: { field: string; file: MemoryFile }[] = [];
  // Kept here too: a stream's error reaches formidable a tick late, after a small request may have ended.
  const refused: { error?: AppError } = {};
  const refuse = (error: AppError) => (refused.error ??= error);
  // What this request took from the shared budget, given back once its response is over.
  let taken = 0;
  const charge = (bytes: number) => {
    if (!limits.budget.take(bytes)) return false;
    taken += bytes;
    return true;
  };
  ctx.res.once('close', () => limits.budget.give(taken));
  const form = formidable({
    maxFiles: limits.maxFiles,
    maxFileSize: limits.maxFileBytes,
    // Formidable's default total is one file's size; the real bound is the count times the size.
    maxTotalFileSize: limits.maxFiles * limits.maxFileBytes,
    maxFields: 30,
    maxFieldsSize: 64 * 1024,
    allowEmptyFiles: false,
    minFileSize: 1,
    fileWriteStreamHandler: (file) => {
      const field = file ? fieldOf.get(file) : undefined;
      if (field === undefined || !limits.fileFields.includes(field)) {
        return MemoryFile.refusing(
          refuse(badRequest('invalid_input', `Unexpected file field: ${String(field).slice(0, 64)}`)),
        );
      }
      const memory = new MemoryFile(
        limits.maxFileBytes,
        () => refuse(limits.fileTooLarge()),
        charge,
        () => refuse(uploadsBusy()),
      );
      received.push({ field, file: memory });
      return memory;
    },
  });
  // Emitted just before formidable asks for the file's stream: how the stream learns its field.
  form.on('fileBegin', (field, file) => fieldOf.set(file, field));
  const cutShort = whenCutShort(ctx.req);
  let rawFields: formidable.Fields;
  try {
    [rawFields] = await Promise.race([form.parse(ctx.req), cutShort.promise]);
  } catch (error) {
    throw refused.error ?? (error instanceof AppError ? error : translateFormidableError(error, limits));
  } finally {
    cutShort.stop();
  }
  if (refused.error) throw refused.error;
  return {
    fields: Object.fromEntries(
      Object.entries(rawFields).flatMap(([key, values]) =>
        values?.length ? [[key, values[values.length - 1] ?? '']] : [],
      ),
    ),
    files: received.map(({ field, file }) => ({ field, bytes: file.bytes() })),
  };
}

/** One uploaded file's bytes, refused with `tooLarge` as soon as they pass `maxBytes`. */
class MemoryFile extends Writable {
  private readonly chunks: Buffer[] = [];
  private size = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly tooLarge: () => AppError,
    /** Takes bytes from the shared budget; false when they do not fit. */
    private readonly charge: (bytes: number) => boolean,
    private readonly busy: () => AppError,
    private readonly refusal?: AppError,
  ) {
    super();
  }

  /** A file that fails the request before taking a byte (its stream errors; formidable then stops). */
  static refusing(error: AppError): MemoryFile {
    return new MemoryFile(
      0,
      () => error,
      () => false,
      () => error,
      error,
    );
  }

  override _construct(callback: (error?: Error | null) => void): void {
    callback(this.refusal ?? null);
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.size += chunk.length;
    if (this.size > this.maxBytes) {
      callback(this.tooLarge());
      return;
    }
    if (!this.charge(chunk.length)) {
      callback(this.busy());
      return;
    }
    this.chunks.push(chunk);
    callback();
  }

  bytes(): Buffer {
    return Buffer.concat(this.chunks, this.size);
  }
}

/**
 * Rejects when the client goes away before its body ended. Formidable listens to the request only once
 * parsing starts, so a client gone before then (while the session was looked up) would leave it waiting
 * for the body forever.
 */
function whenCutShort(req: IncomingMessage): { promise: Promise<never>; stop: () => void } {
  let gone = () => {};
  const promise = new Promise<never>((_resolve, reject) => {
    gone = () => {
      if (!req.complete) reject(badRequest('invalid_input', 'The request ended before its body did'));
    };
  });
  if (req.destroyed) gone();
  else req.once('close', gone);
  return { promise, stop: () => req.off('close', gone) };
}

function translateFormidableError(error: unknown, limits: MultipartLimits): AppError {
  const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
  switch (code) {
    case formidableErrors.biggerThanMaxFileSize:
    case formidableErrors.biggerThanTotalMaxFileSize:
      return limits.fileTooLarge();
    case formidableErrors.maxFilesExceeded:
      return limits.tooManyFiles();
    case formidableErrors.maxFieldsExceeded:
    case formidableErrors.maxFieldsSizeExceeded:
      return new AppError(413, 'payload_too_large', 'The request is too large');
    default:
      return badRequest('invalid_input', 'Malformed multipart body');
  }
}
