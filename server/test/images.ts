import sharp from 'sharp';

/** Test images made on the fly with sharp, so no binary fixtures live in the repository. */

/** A photo straight from a phone: JPEG with camera EXIF and a GPS position. */
export function jpegWithGps(width = 1200, height = 1600): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 120, b: 90 } } })
    .jpeg()
    .withExif({
      IFD0: { Make: 'PhoneMaker', Model: 'Phone 15', Copyright: 'Secret Person' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '55/1 45/1 2100/100',
        GPSLongitudeRef: 'E',
        GPSLongitude: '37/1 37/1 1700/100',
      },
    })
    .toBuffer();
}

/**
 * A landscape JPEG whose EXIF says "rotate 90° clockwise to display" (orientation 6), left half red and
 * right half blue: shown upright it is portrait with red on top.
 */
export async function sidewaysJpeg(): Promise<Buffer> {
  const red = await sharp({ create: { width: 600, height: 900, channels: 3, background: '#ff0000' } })
    .png()
    .toBuffer();
  return sharp({ create: { width: 1200, height: 900, channels: 3, background: '#0000ff' } })
    .composite([{ input: red, left: 0, top: 0 }])
    .jpeg()
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

export function png(width = 800, height = 800): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#33aa55' } })
    .png()
    .toBuffer();
}

export function webp(width = 900, height = 1200): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#5533aa' } })
    .webp()
    .toBuffer();
}

/** 50 megapixels of one colour: a few hundred KB on disk, 150 MB once decoded. */
export function decompressionBombPng(): Promise<Buffer> {
  return sharp({ create: { width: 10_000, height: 5_000, channels: 3, background: '#ffffff' } })
    .png({ compressionLevel: 9 })
    .toBuffer();
}

/** Something that only looks like a photo by its name. */
export function textRenamedJpg(): Buffer {
  return Buffer.from('this is not an image, whatever the name says\n'.repeat(20));
}

/** Over the 15 MB limit, with a JPEG signature so only the size can refuse it. */
export function oversizedFile(bytes = 16 * 1024 * 1024): Buffer {
  const buffer = Buffer.alloc(bytes, 0x55);
  buffer.set([0xff, 0xd8, 0xff, 0xe0], 0);
  return buffer;
}
