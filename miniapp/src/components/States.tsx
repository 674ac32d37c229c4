import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/ApiError.ts';
import type { TranslationKey } from '../i18n.ts';
import { errorText } from '../lib/errorText.ts';

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

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
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

interface QueryViewProps<T> {
  query: UseQueryResult<T>;
  /** The screen's own message when the server refused (spec section 8); see lib/errorText.ts. */
  failedKey: TranslationKey;
  /** …and when something broke on the way (defaults to `failedKey`). */
  exceptionKey?: TranslationKey;
  /** Used instead of `failedKey` when the server answered 404 (a person who is gone, say). */
  notFoundKey?: TranslationKey;
  loadingLabel?: string;
  /** When the data counts as empty, `empty` is shown instead of the children. */
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  /** Shown under the error (another way on besides Retry). */
  afterError?: ReactNode;
  children: (data: T) => ReactNode;
}

/** The server says the thing is gone or not for this user: what the cache holds of it is no use any more. */
export function isGone(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 403 || error.status === 404);
}

/**
 * A query's four states, the same way on every screen: a spinner while there is nothing to show (also
 * while Retry runs), the error with Retry, the empty state, or the data. Data already in the cache stays
 * on screen while a fresh copy loads, and when refreshing it failed on the way (not when the server said
 * it is gone).
 */
export function QueryView<T>({
  query,
  failedKey,
  exceptionKey,
  notFoundKey,
  loadingLabel,
  isEmpty,
  empty,
  afterError,
  children,
}: QueryViewProps<T>) {
  const { t } = useTranslation();
  const failed = query.isError && !query.isFetching;
  if (query.data !== undefined && !(failed && isGone(query.error)))
    return <>{isEmpty?.(query.data) ? empty : children(query.data)}</>;
  if (failed) {
    const failed =
      notFoundKey && query.error instanceof ApiError && query.error.status === 404 ? notFoundKey : failedKey;
    return (
      <>
        <ErrorState
          message={errorText(t, query.error, failed, exceptionKey ?? failed)}
          onRetry={() => void query.refetch()}
        />
        {afterError}
      </>
    );
  }
  return <Loading label={loadingLabel} />;
}
