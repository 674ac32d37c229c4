import { useId, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { anyDistanceIndex, distanceAt, indexOfDistance } from '../lib/filterStops.ts';
import './DistanceSlider.css';

/**
 * How far the deck looks: one native range input over the stops of lib/filterStops.ts (1 to 500 km, fine
 * nearby, coarse far away), its last position "any distance" (no limit). Keyboard and screen readers work
 * as with any slider; the value is said in words ("up to 20 km"), not as a position.
 */
export function DistanceSlider({
  value,
  onChange,
}: {
  value: number | undefined;
  onChange: (km: number | undefined) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const index = indexOfDistance(value);
  const said = value === undefined ? t('app.menu.distanceAny') : t('app.menu.distanceValue', { km: value });
  return (
    <div className="range distance-slider">
      <div className="range-head">
        <label htmlFor={`${id}-input`}>{t('app.menu.distance')}</label>
        <output htmlFor={`${id}-input`} aria-live="polite">
          {said}
        </output>
      </div>
      <div
        className="range-track"
        style={{ '--lo': '0%', '--hi': `${(index / anyDistanceIndex) * 100}%` } as CSSProperties}
      >
        <input
          id={`${id}-input`}
          type="range"
          min={0}
          max={anyDistanceIndex}
          step={1}
          value={index}
          aria-valuetext={said}
          data-km={value ?? ''}
          onChange={(e) => onChange(distanceAt(Number(e.target.value)))}
        />
      </div>
    </div>
  );
}
