import type Sharp from 'sharp';
import { AppError, badRequest } from '../../errors.ts';

let loadedSharp: Promise<typeof Sharp> | undefined;

/**
 * sharp (libvips, about 20 MB of the process) is loaded with the first photo: a server can run for long
 * without one, and most of its processes never get one (issue 41: memory).
 */
function sharpLoaded(): Promise<typeof Sharp> {
  loadedSharp ??= import('sharp').then((module) => module.default);
  return loadedSharp;
}

export const photoWidth = 640;
export const photoHeight = 852;
export const thumbWidth = 240;
export const thumbHeight = 320;
export const maxPhotoBytes = 15 * 1024 * 1024;
export const maxPhotoPixels = 40_000_000;

export type ImageFormat = 'jpeg' | 'png' | 'webp';

export const invalidImage = () => badRequest('invalid_image', 'Only JPEG, PNG or WebP photos are accepted.');
export const photoTooLarge = () => new AppError(413, 'photo_too_large', 'Each photo must be at most 15 MB.');
export const tooManyPixels = () =>
  new AppError(413, 'photo_too_many_pixels', 'The photo is too large: at most 40 megapixels.');

/** The format by the file's first bytes: what the name or the declared type say is never believed. */
export function sniffImageFormat(head: Uint8Array): ImageFormat | null {
  const starts = (bytes: number[], at = 0) => bytes.every((b, i) => head[at + i] === b);
  if (starts([0xff, 0xd8, 0xff])) return 'jpeg';
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return 'webp';
  return null;
}

export interface ProcessedPhoto {
  photo: Buffer;
  thumb: Buffer;
  /** Unrecognisable at a glance: what free users see of the people who liked them. */
  blurred: Buffer;
}

/** Thumbnail and blurred copy, both from the small result: a second decode of the original would double the cost. */
export async function derivedImages(photo: Buffer): Promise<Omit<ProcessedPhoto, 'photo'>> {
  const sharp = await sharpLoaded();
  const thumb = await sharp(photo).resize(thumbWidth, thumbHeight).jpeg({ quality: 78 }).toBuffer();
  const blurred = await sharp(thumb).blur(14).jpeg({ quality: 60 }).toBuffer();
  return { thumb, blurred };
}

/**
 * Checks an upload and re-encodes it: the bytes must be JPEG, PNG or WebP; the pixel count is read from
 * the header before anything is decoded, so a small file that would decode into gigabytes (a
 * decompression bomb) is refused; then it is turned upright from its EXIF orientation and re-encoded to a
 * 640x852 JPEG, cover-cropped at 3:4. Re-encoding without `withMetadata` drops EXIF, GPS, XMP and ICC.
 */
export async function processPhoto(bytes: Buffer): Promise<ProcessedPhoto> {
  await checkImage(bytes);
  const sharp = await sharpLoaded();
  let photo: Buffer;
  try {
    photo = await sharp(bytes, { limitInputPixels: maxPhotoPixels, failOn: 'error' })
      .rotate()
      .resize(photoWidth, photoHeight, { fit: 'cover' })
      .jpeg({ quality: 82, mozjpeg: true })
      .toBuffer();
  } catch {
    throw invalidImage();
  }
  return { photo, ...(await derivedImages(photo)) };
}

/** The longest side of a photo handed to the app's cropper (a Telegram profile photo is at most 640 or 1280). */
export const croppableSide = 1280;

/**
 * A photo from elsewhere (the user's Telegram profile photo) made safe to hand to the app's cropper: the same
 * checks as an upload, upright, re-encoded as JPEG without metadata, at most 1280 px a side, uncropped (the
 * user frames it; the cropped result is then uploaded through processPhoto like any other).
 */
export async function reencodeForCropping(bytes: Buffer): Promise<Buffer> {
  const sharp = await sharpLoaded();
  await checkImage(bytes);
  try {
    return await sharp(bytes, { limitInputPixels: maxPhotoPixels, failOn: 'error' })
      .rotate()
      .resize(croppableSide, croppableSide, { fit: 'inside', withoutEnlargement: true })
      .jpeg({ quality: 88 })
      .toBuffer();
  } catch {
    throw invalidImage();
  }
}

/** JPEG, PNG or WebP by its bytes, and few enough pixels, read from the header before any decoding. */
async function checkImage(bytes: Buffer): Promise<void> {
  const format = sniffImageFormat(bytes.subarray(0, 16));
  if (!format) throw invalidImage();
  // Only for what looks like an image: a stray upload does not load libvips.
  const sharp = await sharpLoaded();
  let width: number | undefined;
  let height: number | undefined;
  try {
    ({ width, height } = await sharp(bytes).metadata());
  } catch {
    throw invalidImage();
  }
  if (!width || !height) throw invalidImage();
  if (width * height > maxPhotoPixels) throw tooManyPixels();
}
