import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { Writable } from 'node:stream';
import formidable, { errors as formidableErrors, type File } from 'formidable';
import { AppError, badRequest } from '../errors.ts';
import type { AppContext } from './context.ts';

export interface MultipartLimits {
  /** Where files are written while they arrive; each is removed when its request ends. */
  tempDir: string;
  /** File field names accepted; a file under any other name is refused. */
  fileFields: readonly string[];
  maxFiles: number;
  maxFileBytes: number;
  tooManyFiles: () => AppError;
  fileTooLarge: () => AppError;
}

export interface UploadedFile {
  field: string;
  /** A temporary file; removed by `MultipartBody.cleanup`. */
  path: string;
  size: number;
}

export interface MultipartBody {
  /** Text fields; a repeated field keeps its last value. */
  fields: Record<string, string>;
  files: UploadedFile[];
  cleanup(): Promise<void>;
}

/**
 * Reads a multipart request into temporary files with hard limits, so a huge or endless upload is cut
 * off while streaming instead of after it filled the disk. The caller must `cleanup()` in a finally.
 *
 * Every file this request opened is removed whatever happens: formidable's own clean-up on an error misses
 * a file it opens after the error (the one over `maxFiles` is opened just after being refused, and a part
 * still being set up when the limit hit opens later), and unlinks before a pending open has created the
 * file. So the write streams are ours: on a failure they are all closed (a pending open finishes first),
 * any file begun afterwards goes nowhere, and then every path is removed.
 */
export async function readMultipart(ctx: AppContext, limits: MultipartLimits): Promise<MultipartBody> {
  if (!ctx.is('multipart')) throw badRequest('invalid_input', 'Expected a multipart/form-data body');
  await mkdir(limits.tempDir, { recursive: true });
  const opened: { path: string; stream: WriteStream }[] = [];
  let failed = false;
  const removeAll = async () => {
    await Promise.all(opened.map(({ stream }) => closed(stream)));
    await Promise.all(opened.map((f) => rm(f.path, { force: true })));
  };
  const form = formidable({
    uploadDir: limits.tempDir,
    // One more than allowed, so "one too many" is told apart from a flood and answered precisely.
    maxFiles: limits.maxFiles + 1,
    maxFileSize: limits.maxFileBytes,
    maxTotalFileSize: (limits.maxFiles + 1) * limits.maxFileBytes,
    maxFields: 30,
    maxFieldsSize: 64 * 1024,
    allowEmptyFiles: false,
    minFileSize: 1,
    fileWriteStreamHandler: (file) => {
      const target = (file as { filepath?: unknown } | undefined)?.filepath;
      if (failed || typeof target !== 'string') return discard();
      const stream = createWriteStream(target, { flags: 'wx' });
      opened.push({ path: target, stream });
      return stream;
    },
  });
  // Formidable lists a file when its write finishes, so a small photo can overtake a big one sent before
  // it; the order the files arrived in is the order the user chose, so it is recorded here.
  const arrival: File[] = [];
  form.on('fileBegin', (_name, file) => arrival.push(file));
  let parsed: [formidable.Fields, formidable.Files];
  try {
    parsed = await form.parse(ctx.req);
  } catch (error) {
    failed = true;
    await removeAll();
    throw translateFormidableError(error, limits);
  }
  const [rawFields, rawFiles] = parsed;
  const files: UploadedFile[] = Object.entries(rawFiles)
    .flatMap(([field, list]) => (list ?? []).map((file: File) => ({ field, file })))
    .sort((a, b) => arrival.indexOf(a.file) - arrival.indexOf(b.file))
    .map(({ field, file }) => ({ field, path: file.filepath, size: file.size }));
  const body: MultipartBody = {
    fields: Object.fromEntries(Object.entries(rawFields).flatMap(([key, values]) => (values?.length ? [[key, values[values.length - 1] ?? '']] : []))),
    files,
    cleanup: removeAll,
  };
  const stray = files.find((f) => !limits.fileFields.includes(f.field));
  if (stray) {
    await body.cleanup();
    throw badRequest('invalid_input', `Unexpected file field: ${stray.field}`);
  }
  if (files.length > limits.maxFiles) {
    await body.cleanup();
    throw limits.tooManyFiles();
  }
  return body;
}

/** Closes a temporary file's stream; resolves once its descriptor is closed (after a pending open). */
async function closed(stream: WriteStream): Promise<void> {
  if (stream.closed) return;
  // Not events.once: a write cut short by the destruction emits 'error', which is expected here.
  const done = new Promise<void>((resolve) => stream.once('close', () => resolve()));
  stream.destroy();
  await done;
}

/** Where a file begun after the request already failed is written: nowhere. */
function discard(): Writable {
  return new Writable({
    write(_chunk, _encoding, callback) {
      callback();
    },
  });
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
