import { translatorFor, type Language } from '../../../locales/index.ts';
import {
  promptCatalog,
  type ProfilePrompt,
  type PromptAnswersInput,
  type PromptListResponse,
} from '../../contract/prompts.ts';

/** Each language's questions by prompt id, built once: every card and profile names its prompts. */
const questionsByLanguage = new Map<Language, ReadonlyMap<number, string>>();

function questionsIn(language: Language): ReadonlyMap<number, string> {
  let questions = questionsByLanguage.get(language);
  if (!questions) {
    const t = translatorFor(language);
    questions = new Map(promptCatalog.map((prompt) => [prompt.id, t(`prompts.${prompt.key}`)]));
    questionsByLanguage.set(language, questions);
  }
  return questions;
}

/** `GET /api/prompts`: every prompt, in the catalogue's order, in the reader's language. */
export function listPrompts(language: Language): PromptListResponse {
  const questions = questionsIn(language);
  return promptCatalog.map((prompt) => ({ id: prompt.id, text: questions.get(prompt.id) ?? '' }));
}

/** What `profiles.prompts` holds: the parsed answers, as they came, in their order. */
export function storedPrompts(answers: PromptAnswersInput): string {
  return JSON.stringify(answers.map((a) => ({ prompt_id: a.prompt_id, answer: a.answer })));
}

function isStoredAnswer(value: unknown): value is { prompt_id: number; answer: string } {
  if (typeof value !== 'object' || value === null) return false;
  const { prompt_id, answer } = value as Record<string, unknown>;
  return typeof prompt_id === 'number' && typeof answer === 'string';
}

/**
 * A profile's prompts as any reader gets them, the questions in the reader's language. An answer to a
 * prompt no longer in the catalogue is left out rather than shown without its question.
 */
export function presentPrompts(stored: string, language: Language): ProfilePrompt[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(stored);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  const questions = questionsIn(language);
  const shown: ProfilePrompt[] = [];
  for (const item of parsed) {
    if (!isStoredAnswer(item)) continue;
    const question = questions.get(item.prompt_id);
    if (question !== undefined) shown.push({ prompt_id: item.prompt_id, question, answer: item.answer });
  }
  return shown;
}
