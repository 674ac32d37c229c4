import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { ageAt, indexOfAge, lastAgeIndex } from '../lib/filterStops.ts';
import './AgeRangeSlider.css';

/**
 * Two native range inputs over one track (keyboard and screen readers work as usual). Positions are the
 * spec's steps of 4 from 18 to 100; each thumb stops one step short of the other, so they never meet.
 */
export function AgeRangeSlider({
  value,
  onChange,
}: {
  value: [number, number];
  onChange: (v: [number, number]) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const lo = indexOfAge(value[0]);
  const hi = indexOfAge(value[1]);
  const percent = (i: number) => (i / lastAgeIndex) * 100;
  return (
    <div className="range">
      <div className="range-head">
        <span id={`${id}-label`}>{t('app.menu.ageRange')}</span>
        <output aria-live="polite">{t('app.menu.ageValue', { min: value[0], max: value[1] })}</output>
      </div>
      <div
        className="range-track"
        style={{ '--lo': `${percent(lo)}%`, '--hi': `${percent(hi)}%` } as React.CSSProperties}
      >
        <input
          type="range"
          min={0}
          max={lastAgeIndex}
          step={1}
          value={lo}
          aria-label={t('app.menu.ageFrom')}
          aria-valuetext={String(ageAt(lo))}
          onChange={(e) => onChange([ageAt(Math.min(Number(e.target.value), hi - 1)), ageAt(hi)])}
        />
        <input
          type="range"
          min={0}
          max={lastAgeIndex}
          step={1}
          value={hi}
          aria-label={t('app.menu.ageTo')}
          aria-valuetext={String(ageAt(hi))}
          onChange={(e) => onChange([ageAt(lo), ageAt(Math.max(Number(e.target.value), lo + 1))])}
        />
      </div>
    </div>
  );
}
