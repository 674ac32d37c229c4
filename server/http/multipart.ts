import { rm } from 'node:fs/promises';
import formidable, { errors as formidableErrors, type File } from 'formidable';
import { AppError, badRequest } from '../errors.ts';
import type { AppContext } from './context.ts';

export interface MultipartLimits {
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
 */
export async function readMultipart(ctx: AppContext, limits: MultipartLimits): Promise<MultipartBody> {
  if (!ctx.is('multipart')) throw badRequest('invalid_input', 'Expected a multipart/form-data body');
  const form = formidable({
    // One more than allowed, so "one too many" is told apart from a flood and answered precisely.
    maxFiles: limits.maxFiles + 1,
    maxFileSize: limits.maxFileBytes,
    maxTotalFileSize: (limits.maxFiles + 1) * limits.maxFileBytes,
    maxFields: 30,
    maxFieldsSize: 64 * 1024,
    allowEmptyFiles: false,
    minFileSize: 1,
  });
  // Formidable lists a file when its write finishes, so a small photo can overtake a big one sent before
  // it; the order the files arrived in is the order the user chose, so it is recorded here.
  const arrival: File[] = [];
  form.on('fileBegin', (_name, file) => arrival.push(file));
  let parsed: [formidable.Fields, formidable.Files];
  try {
    parsed = await form.parse(ctx.req);
  } catch (error) {
    throw translateFormidableError(error, limits);
  }
  const [rawFields, rawFiles] = parsed;
  const files: UploadedFile[] = Object.entries(rawFiles)
    .flatMap(([field, list]) => (list ?? []).map((file: File) => ({ field, file })))
    .sort((a, b) => arrival.indexOf(a.file) - arrival.indexOf(b.file))
    .map(({ field, file }) => ({ field, path: file.filepath, size: file.size }));
  const body: MultipartBody = {
    fields: Object.fromEntries(
      Object.entries(rawFields).flatMap(([key, values]) => (values?.length ? [[key, values[values.length - 1] ?? '']] : [])),
    ),
    files,
    cleanup: async () => {
      await Promise.all(files.map((f) => rm(f.path, { force: true })));
    },
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
