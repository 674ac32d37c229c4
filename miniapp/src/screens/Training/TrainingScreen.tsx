import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useTrainingCard } from '../../api/queries/search.ts';
import { QueryView } from '../../components/States.tsx';
import { SwipeCard } from '../Search/SwipeCard.tsx';
import '../Search/Search.css';

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
        <span className="muted">{t('app.training.stepOf', { step: index + 1, total: steps.length })}</span> {t(`app.training.steps.${step}`)}
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
      {step !== 'done' && (
        <div className="deck-buttons">
          <button type="button" className="round-button nope" onClick={() => advanceIf('buttons')} aria-label={t('app.search.dislike')}>
            <svg viewBox="0 0 24 24" width="30" height="30" aria-hidden="true">
              <path fill="currentColor" d="M18.3 5.7 12 12l6.3 6.3-1.4 1.4L10.6 13.4 4.3 19.7 2.9 18.3 9.2 12 2.9 5.7l1.4-1.4 6.3 6.3 6.3-6.3z" />
            </svg>
          </button>
          <button type="button" className="round-button like" onClick={() => advanceIf('buttons')} aria-label={t('app.search.like')}>
            <svg viewBox="0 0 24 24" width="30" height="30" aria-hidden="true">
              <path fill="currentColor" d="M12 21.4 10.6 20C5.4 15.4 2 12.3 2 8.5 2 5.4 4.4 3 7.5 3c1.7 0 3.4.8 4.5 2.1C13.1 3.8 14.8 3 16.5 3 19.6 3 22 5.4 22 8.5c0 3.8-3.4 6.9-8.6 11.5z" />
            </svg>
          </button>
        </div>
      )}
    </section>
  );
}
