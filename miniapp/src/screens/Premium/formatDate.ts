/** A subscription's date as the reader's language writes it ("24 ноября 2026 г.", "November 24, 2026"). */
export function formatDate(iso: string, language: string): string {
  return new Date(iso).toLocaleDateString(language, { dateStyle: 'long' });
}

/** Whole days from now until `iso`, at least 1 while it lies ahead. */
export function daysUntil(iso: string, now: Date = new Date()): number {
  return Math.max(1, Math.ceil((Date.parse(iso) - now.getTime()) / 86_400_000));
}
