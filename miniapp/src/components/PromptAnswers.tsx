import type { ProfilePrompt } from '@contract/prompts.ts';
import './PromptAnswers.css';

/**
 * A person's answered prompts, question above answer: all of them in the profile details (`details`), the
 * first alone over the deck card's photo (`card`, three lines at most), or all of them over the photo in
 * the card's opened details (`cardAll`).
 */
export function PromptAnswers({
  prompts,
  variant = 'details',
}: {
  prompts: readonly ProfilePrompt[];
  variant?: 'details' | 'card' | 'cardAll';
}) {
  const shown = variant === 'card' ? prompts.slice(0, 1) : prompts;
  if (shown.length === 0) return null;
  return (
    <ul
      className={`prompt-answers ${variant === 'details' ? 'details' : 'on-photo'} ${variant === 'card' ? 'first' : ''}`}
    >
      {shown.map((p) => (
        <li key={p.prompt_id} className="prompt-answer">
          <span className="prompt-answer-question">{p.question}</span>
          <span className="prompt-answer-text">{p.answer}</span>
        </li>
      ))}
    </ul>
  );
}
