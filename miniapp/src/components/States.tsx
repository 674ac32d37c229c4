import { useTranslation } from 'react-i18next';

/** The loading, empty and error states every screen renders (DESIGN section 6). */
export function Loading({ label }: { label?: string }) {
  const { t } = useTranslation();
  return (
    <div className="state" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span>{label ?? t('app.common.loading')}</span>
    </div>
  );
}

export function ErrorState({ message, onRetry }: { message: string; onRetry?: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="state state-error" role="alert">
      <p>{message}</p>
      {onRetry && (
        <button type="button" className="button secondary" onClick={onRetry}>
          {t('app.common.retry')}
        </button>
      )}
    </div>
  );
}

export function EmptyState({ title, children }: { title: string; children?: React.ReactNode }) {
  return (
    <div className="state state-empty">
      <p className="state-title">{title}</p>
      {children}
    </div>
  );
}

/** One line under a form: announced by screen readers when it appears. */
export function ErrorLine({ message }: { message: string | null }) {
  return (
    <p className="error-line" role="alert" aria-live="assertive">
      {message ?? ''}
    </p>
  );
}
