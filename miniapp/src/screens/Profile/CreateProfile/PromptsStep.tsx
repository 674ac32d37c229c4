import type { Dispatch } from 'react';
import { useTranslation } from 'react-i18next';
import { maxPrompts } from '@contract/prompts.ts';
import { PromptEditor } from '../../../components/PromptEditor.tsx';
import type { WizardAction, WizardState } from './wizardState.ts';

/** Step 4, optional: up to three prompts and their answers, shown on the card and in the details. */
export function PromptsStep({ state, dispatch }: { state: WizardState; dispatch: Dispatch<WizardAction> }) {
  const { t } = useTranslation();
  return (
    <div className="wizard-step">
      <h2>{t('app.prompts.title')}</h2>
      <p className="muted">{t('app.prompts.wizardText', { max: maxPrompts })}</p>
      <PromptEditor value={state.prompts} onChange={(prompts) => dispatch({ type: 'edit', fields: { prompts } })} />
    </div>
  );
}
