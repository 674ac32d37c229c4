import type { AdminStatsDay } from '@contract/admin.ts';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { useAdminStats } from '../../api/queries/admin.ts';
import { QueryView } from '../../components/States.tsx';
import type { TranslationKey } from '../../i18n.ts';

const periods = [7, 30, 90] as const;
const measures: { key: keyof Omit<AdminStatsDay, 'day'>; label: TranslationKey }[] = [
  { key: 'sign_ups', label: 'app.admin.stats.signUps' },
  { key: 'active', label: 'app.admin.stats.active' },
  { key: 'matches', label: 'app.admin.stats.matches' },
  { key: 'messages', label: 'app.admin.stats.messages' },
  { key: 'payments', label: 'app.admin.stats.payments' },
];

/** The stats tab (its own chunk, with uPlot): one small chart per measure, per day, for 7, 30 or 90 days. */
export default function StatsTab() {
  const { t } = useTranslation();
  const [days, setDays] = useState<(typeof periods)[number]>(30);
  const query = useAdminStats(days);
  return (
    <div className="admin-stats">
      <div className="admin-periods" role="group" aria-label={t('app.admin.stats.days')}>
        {periods.map((p) => (
          <button
            key={p}
            type="button"
            aria-pressed={days === p}
            className={days === p ? 'button small' : 'button small secondary'}
            onClick={() => setDays(p)}
          >
            {t('app.admin.stats.daysValue', { count: p })}
          </button>
        ))}
      </div>
      <QueryView query={query} failedKey="app.admin.loadFailed">
        {(stats) => (
          <div className="admin-charts">
            {measures.map((m) => (
              <figure key={m.key} className="card admin-chart" data-measure={m.key}>
                <figcaption>
                  <strong>{t(m.label)}</strong>{' '}
                  <span className="muted">
                    {t('app.admin.stats.total', { count: stats.series.reduce((sum, d) => sum + d[m.key], 0) })}
                  </span>
                </figcaption>
                <DayChart days={stats.series} measure={m.key} label={t(m.label)} />
              </figure>
            ))}
          </div>
        )}
      </QueryView>
    </div>
  );
}

/** The theme's colours, read from the page's CSS variables so the charts follow light, dark and Telegram. */
function themeColour(name: string, fallback: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}

/** Changes whenever the page's theme does (`data-theme` on <html>), so a canvas chart can draw itself again. */
function useThemeVersion(): number {
  const [version, setVersion] = useState(0);
  useEffect(() => {
    const observer = new MutationObserver(() => setVersion((v) => v + 1));
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    return () => observer.disconnect();
  }, []);
  return version;
}

function DayChart({
  days,
  measure,
  label,
}: {
  days: AdminStatsDay[];
  measure: keyof Omit<AdminStatsDay, 'day'>;
  label: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const theme = useThemeVersion();
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const x = days.map((d) => Date.parse(`${d.day}T00:00:00Z`) / 1000);
    const y = days.map((d) => d[measure]);
    const text = themeColour('--muted', '#57534e');
    const grid = themeColour('--border', '#eadfdc');
    const accent = themeColour('--accent', '#e11d48');
    const axis = { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
    const chart = new uPlot(
      {
        width: Math.max(200, element.clientWidth),
        height: 160,
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
        axes: [axis, { ...axis, size: 40 }],
        series: [
          {},
          {
            label,
            stroke: accent,
            // A faint area under the line when the colour is plain hex (Telegram's may be rgb()).
            ...(/^#[0-9a-f]{6}$/i.test(accent) ? { fill: `${accent}22` } : {}),
            width: 2,
            points: { show: days.length <= 31 },
          },
        ],
      },
      [x, y],
      element,
    );
    const resize = new ResizeObserver(() => chart.setSize({ width: Math.max(200, element.clientWidth), height: 160 }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [days, measure, label, theme]);
  return <div ref={box} className="admin-chart-box" role="img" aria-label={label} />;
}
