import { useTranslation } from 'react-i18next';
import type { ActiveRecently as Activity } from '@contract/discovery.ts';
import { genderContext } from '@locales/genderContext.ts';
import './ActiveRecently.css';

/**
 * "Active today" / "active this week" (RU gendered by the person: «Была в сети сегодня»), as coarse as the
 * server says it (issue 37: never a time). Nothing when the server sends null: long ago, private mode, or
 * the person turned it off.
 */
export function ActiveRecently({
  activity,
  gender,
  className = '',
}: {
  activity: Activity;
  gender: string;
  className?: string;
}) {
  const { t } = useTranslation();
  if (!activity) return null;
  return (
    <p className={`active-recently ${activity} ${className}`.trim()} data-activity={activity}>
      <span className="active-dot" aria-hidden="true" />
      {t(`app.activity.${activity}`, { context: genderContext(gender) })}
    </p>
  );
}
