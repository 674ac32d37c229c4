import { createRequire } from 'node:module';
import path from 'node:path';
import sharp from 'sharp';

/**
 * Faces for the model tests and the bench, cut from the screenshots @vladmandic/human ships in its `assets/`
 * (no image of a person lives in this repository). `man`, from the face-detection demo, is the one used for
 * "same person"; `woman1`..`woman4` are four other people from the same strip.
 */
const assets = path.join(path.dirname(createRequire(import.meta.url).resolve('@vladmandic/human')), '..', 'assets');

async function crop(file: string, left: number, top: number, width: number, height: number): Promise<Buffer> {
  return sharp(path.join(assets, file))
    .extract({ left, top, width, height })
    .resize(640, 852, { fit: 'cover' })
    .jpeg({ quality: 90 })
    .toBuffer();
}

export interface SampleFaces {
  man: Buffer;
  woman1: Buffer;
  woman2: Buffer;
  woman3: Buffer;
  woman4: Buffer;
}

export async function sampleFaces(): Promise<SampleFaces> {
  const strip = 'screenshot-facedetect.jpg';
  return {
    man: await crop(strip, 7, 345, 151, 151),
    woman1: await crop(strip, 164, 345, 152, 151),
    woman2: await crop(strip, 322, 345, 151, 151),
    woman3: await crop(strip, 478, 345, 151, 151),
    woman4: await crop(strip, 631, 345, 160, 151),
  };
}

/** The head tilted: the whole photo turned by `degrees` (clockwise), as a selfie for the tilt poses. */
export async function tilted(photo: Buffer, degrees: number): Promise<Buffer> {
  return sharp(await sharp(photo).rotate(degrees, { background: '#808080' }).toBuffer())
    .resize(640, 852, { fit: 'cover' })
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** Two people side by side, both large: "several faces". */
export async function twoPeople(a: Buffer, b: Buffer): Promise<Buffer> {
  const half = async (photo: Buffer) => sharp(photo).resize(320, 426).toBuffer();
  return sharp({ create: { width: 640, height: 852, channels: 3, background: '#777777' } })
    .composite([
      { input: await half(a), left: 0, top: 213 },
      { input: await half(b), left: 320, top: 213 },
    ])
    .jpeg()
    .toBuffer();
}

/** Grey noise: nothing a face detector should find. */
export async function noise(): Promise<Buffer> {
  const pixels = Buffer.alloc(640 * 852 * 3);
  let seed = 7;
  for (let i = 0; i < pixels.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    pixels[i] = seed >> 23;
  }
  return sharp(pixels, { raw: { width: 640, height: 852, channels: 3 } })
    .jpeg()
    .toBuffer();
}
