/** Photo names from the API are file names under `/api/uploads/`; each has a small `.thumb.jpg` twin. */
export function photoUrl(name: string, size: 'full' | 'thumb' = 'full'): string {
  return `/api/uploads/${size === 'thumb' ? name.replace(/\.jpg$/, '.thumb.jpg') : name}`;
}
