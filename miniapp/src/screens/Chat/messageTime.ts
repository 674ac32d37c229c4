/** Times in the chat: today's as 14:05, this year's as 3 Nov, older ones with the year. */
export function shortTime(iso: string, language: string, now = new Date()): string {
  const date = new Date(iso);
  if (date.toDateString() === now.toDateString()) return clock(iso, language);
  const sameYear = date.getFullYear() === now.getFullYear();
  return new Intl.DateTimeFormat(language, {
    day: 'numeric',
    month: 'short',
    ...(sameYear ? {} : { year: 'numeric' }),
  }).format(date);
}

export function clock(iso: string, language: string): string {
  return new Intl.DateTimeFormat(language, { hour: '2-digit', minute: '2-digit' }).format(new Date(iso));
}

/** The day a message belongs to, for the separators between days. */
export function dayKey(iso: string): string {
  return new Date(iso).toDateString();
}

export function dayLabel(
  iso: string,
  language: string,
  labels: { today: string; yesterday: string },
  now = new Date(),
): string {
  const date = new Date(iso);
  if (date.toDateString() === now.toDateString()) return labels.today;
  const yesterday = new Date(now);
  yesterday.setDate(now.getDate() - 1);
  if (date.toDateString() === yesterday.toDateString()) return labels.yesterday;
  return new Intl.DateTimeFormat(language, {
    day: 'numeric',
    month: 'long',
    ...(date.getFullYear() === now.getFullYear() ? {} : { year: 'numeric' }),
  }).format(date);
}
