import type { Area } from 'react-easy-crop';

/** Spec section 9: photos are 3:4, made 640x852 JPEG in the browser before upload. */
export const photoWidth = 640;
export const photoHeight = 852;
export const photoAspect = 3 / 4;

/** Loads an image the browser can decode; rejects for files it cannot (HEIC on many browsers). */
export function loadImage(url: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => resolve(image);
    image.onerror = () => reject(new Error('unreadable image'));
    image.src = url;
  });
}

/**
 * Draws the chosen area into a 640x852 canvas as JPEG. The image element is already upright: browsers
 * apply the EXIF orientation of phone photos when decoding, and the crop area is measured on that.
 */
export async function cropToJpeg(url: string, area: Area): Promise<Blob> {
  const image = await loadImage(url);
  const canvas = document.createElement('canvas');
  canvas.width = photoWidth;
  canvas.height = photoHeight;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no canvas');
  context.imageSmoothingQuality = 'high';
  context.drawImage(image, area.x, area.y, area.width, area.height, 0, 0, photoWidth, photoHeight);
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('no jpeg'))), 'image/jpeg', 0.9),
  );
}
