import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useTrainingCard } from '../../api/queries/training.ts';
import { QueryView } from '../../components/States.tsx';
import { DeckButtons } from '../../components/DeckButtons.tsx';
import { SwipeCard } from '../../components/SwipeCard.tsx';
import './Training.css';

const steps = ['right', 'left', 'up', 'down', 'buttons', 'done'] as const;

/**
 * `/training` (spec section 9): six steps on a sample card that is nobody real — swipe right, left, up,
 * down, tap the buttons, then START to /search. Skip leaves at any time.
 */
export default function TrainingScreen() {
  const { t } = useTranslation();
  const sample = useTrainingCard();
  const [index, setIndex] = useState(0);
  const step = steps[index] ?? 'done';
  const advanceIf = (expected: (typeof steps)[number]) => {
    if (step === expected) setIndex((i) => i + 1);
  };

  return (
    <section className="search-screen training" aria-labelledby="training-title">
      <div className="training-head">
        <h1 id="training-title">{t('app.training.title')}</h1>
        <Link to="/search" replace>
          {t('app.training.skip')}
        </Link>
      </div>
      <p className="training-step" role="status" aria-live="polite">
        <span className="muted">{t('app.training.stepOf', { step: index + 1, total: steps.length })}</span>{' '}
        {t(`app.training.steps.${step}`)}
      </p>
      <div className="deck">
        {step !== 'done' && (
          <QueryView query={sample} failedKey="app.search.failed">
            {(card) => (
              <SwipeCard
                // A fresh card after each like or dislike; the same one while its details open and close.
                key={Math.min(index, 2)}
                card={card}
                onDecide={(liked) => advanceIf(liked ? 'right' : 'left')}
                onExpand={(expanded) => advanceIf(expanded ? 'up' : 'down')}
              />
            )}
          </QueryView>
        )}
        {step === 'done' && (
          <div className="state">
            <p className="state-title">{t('app.training.ready')}</p>
            <Link className="button large" to="/search" replace>
              {t('app.training.start')}
            </Link>
          </div>
        )}
      </div>
      {step !== 'done' && <DeckButtons onDecide={() => advanceIf('buttons')} />}
    </section>
  );
}
