import type { TFunction } from 'i18next';

/**
 * What an opener may be built from: the other person's profile as `/api/users_profile` gives it. `prompts`
 * (their answered prompts, the question in the reader's language) is there once profiles carry them, and may
 * be missing or empty; the rest of the profile serves then.
 */
export interface OpenerSource {
  name: string;
  city?: string;
  bio?: string;
  prompts?: readonly { question: string; answer: string }[];
}

export const openerCount = 3;
/** A quoted piece of their text stays short enough to read as a line of one's own. */
const excerptLength = 60;

/** The start of a text, its first sentence or line when that is short enough, else cut at a word with "…". */
export function excerpt(text: string, max = excerptLength): string {
  const firstLine = text.trim().split(/\n/)[0] ?? '';
  const sentence = /^(.+?[.!?…])(\s|$)/u.exec(firstLine)?.[1] ?? firstLine;
  const piece = sentence.replace(/[.!?…]+$/u, '');
  if (piece.length <= max) return piece;
  const cut = piece.slice(0, max + 1);
  const atWord = cut.slice(0, Math.max(cut.lastIndexOf(' '), max * 0.6)).trimEnd();
  return `${atWord.replace(/[,;:—–-]+$/u, '')}…`;
}

/**
 * Three first lines for an empty conversation, in the reader's language: from their prompts first (the
 * answer, then the question of another), then their bio and their city, then friendly lines that fit anyone.
 */
export function openerLines(t: TFunction, person: OpenerSource): string[] {
  const lines: string[] = [];
  const prompts = (person.prompts ?? []).filter((p) => p.answer.trim() && p.question.trim());
  const [first, second] = prompts;
  if (first) lines.push(t('app.chat.openers.promptAnswer', { answer: excerpt(first.answer) }));
  if (second)
    lines.push(t('app.chat.openers.promptQuestion', { question: second.question.trim().replace(/[.…]+$/u, '') }));
  const bio = person.bio?.trim();
  if (bio) lines.push(t('app.chat.openers.bio', { excerpt: excerpt(bio) }));
  const city = person.city?.trim();
  if (city) lines.push(t('app.chat.openers.city', { city }));
  lines.push(
    t('app.chat.openers.hello', { name: person.name }),
    t('app.chat.openers.weekend'),
    t('app.chat.openers.smile'),
  );
  return [...new Set(lines)].slice(0, openerCount);
}
