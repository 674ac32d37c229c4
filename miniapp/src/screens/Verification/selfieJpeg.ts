/** The longest side a selfie is sent at: plenty for a face, and a phone's 12 MP photo shrinks to ~300 kB. */
const maxSide = 1280;

/**
 * The picked selfie as an upright JPEG no larger than `maxSide`: phones' camera files are several
 * megabytes, and the server strips metadata anyway. Rejects for a file this browser cannot decode (HEIC on
 * many browsers), so the screen can say so before anything is sent.
 */
export async function selfieJpeg(file: Blob): Promise<Blob> {
  // 'from-image': drawn upright whatever the camera's EXIF orientation says.
  const bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  try {
    const scale = Math.min(1, maxSide / Math.max(bitmap.width, bitmap.height));
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(bitmap.width * scale));
    canvas.height = Math.max(1, Math.round(bitmap.height * scale));
    const context = canvas.getContext('2d');
    if (!context) throw new Error('no canvas');
    context.imageSmoothingQuality = 'high';
    context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    return await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('no jpeg'))), 'image/jpeg', 0.9),
    );
  } finally {
    bitmap.close();
  }
}
