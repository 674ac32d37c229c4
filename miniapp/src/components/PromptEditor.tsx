import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { maxPromptAnswerLength, maxPrompts } from '@contract/prompts.ts';
import { usePromptList } from '../api/queries/prompts.ts';
import { BottomSheet } from './BottomSheet.tsx';
import { ErrorState, Loading } from './States.tsx';
import './PromptEditor.css';

/** One chosen prompt and its answer as typed (trimmed by the server). */
export interface PromptDraft {
  prompt_id: number;
  answer: string;
}

/** Every chosen prompt has an answer of 1 to 200 characters (the contract's rule, checked before sending). */
export function promptsAnswered(prompts: readonly PromptDraft[]): boolean {
  return prompts.every((p) => p.answer.trim().length > 0 && p.answer.trim().length <= maxPromptAnswerLength);
}

/**
 * Picks up to three prompts and answers them (the wizard's prompts step and /edit_profile): the chosen ones
 * in order, each with its answer and a remove button, and "Add a prompt" opening the list of the rest.
 */
export function PromptEditor({
  value,
  onChange,
}: {
  value: readonly PromptDraft[];
  onChange: (next: PromptDraft[]) => void;
}) {
  const { t } = useTranslation();
  const list = usePromptList();
  const [choosing, setChoosing] = useState(false);
  /** The prompt just added: its answer box takes the focus. */
  const [added, setAdded] = useState<number | null>(null);
  if (list.isPending) return <Loading />;
  if (list.isError) return <ErrorState message={t('app.prompts.loadFailed')} onRetry={() => void list.refetch()} />;
  const questions = new Map(list.data.map((p) => [p.id, p.text]));
  const chosen = new Set(value.map((p) => p.prompt_id));
  const answer = (promptId: number, text: string) =>
    onChange(value.map((p) => (p.prompt_id === promptId ? { ...p, answer: text } : p)));

  return (
    <div className="prompt-editor">
      <ol className="prompt-edits">
        {value.map((p) => {
          const question = questions.get(p.prompt_id) ?? '';
          return (
            <li key={p.prompt_id} className="prompt-edit">
              <div className="prompt-edit-head">
                <span className="prompt-question">{question}</span>
                <button
                  type="button"
                  className="prompt-remove"
                  aria-label={t('app.prompts.remove', { question })}
                  onClick={() => onChange(value.filter((other) => other.prompt_id !== p.prompt_id))}
                >
                  ×
                </button>
              </div>
              <textarea
                rows={3}
                maxLength={maxPromptAnswerLength}
                value={p.answer}
                placeholder={t('app.prompts.answerPlaceholder')}
                aria-label={t('app.prompts.answerLabel', { question })}
                // Only the box of the prompt just chosen: opening the screen moves no focus.
                autoFocus={added === p.prompt_id}
                onChange={(e) => answer(p.prompt_id, e.target.value)}
              />
              <span className="prompt-left muted" aria-hidden="true">
                {t('app.prompts.left', { count: maxPromptAnswerLength - p.answer.length })}
              </span>
            </li>
          );
        })}
      </ol>
      {value.length < maxPrompts ? (
        <button type="button" className="button secondary block" onClick={() => setChoosing(true)}>
          + {t('app.prompts.add')}
        </button>
      ) : (
        <p className="muted prompt-full">{t('app.prompts.full', { max: maxPrompts })}</p>
      )}
      <BottomSheet open={choosing} title={t('app.prompts.choose')} onClose={() => setChoosing(false)}>
        <ul className="prompt-choices">
          {list.data
            .filter((p) => !chosen.has(p.id))
            .map((p) => (
              <li key={p.id}>
                <button
                  type="button"
                  className="prompt-choice"
                  onClick={() => {
                    onChange([...value, { prompt_id: p.id, answer: '' }]);
                    setAdded(p.id);
                    setChoosing(false);
                  }}
                >
                  {p.text}
                </button>
              </li>
            ))}
        </ul>
      </BottomSheet>
    </div>
  );
}
