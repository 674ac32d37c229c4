import { Component, useLayoutEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { releaseBootCard } from '../lib/bootCard.ts';
import { ChunkLoadError } from './retryingLazy.ts';
import { ErrorState } from './States.tsx';

/** What the app shows instead of a blank page when a screen broke while rendering: reloading starts afresh. */
function AppFailed() {
  const { t } = useTranslation();
  // The deck's first photo painted by boot.js would cover the message.
  useLayoutEffect(releaseBootCard, []);
  return (
    <main className="app-failed">
      <ErrorState message={t('app.errors.appFailed')} onRetry={() => window.location.reload()} />
    </main>
  );
}

/**
 * The app's last resort (around the routes): an error thrown while rendering (an answer no guard caught, a
 * screen's chunk that did not load) would otherwise unmount the whole tree and leave a blank page.
 */
export class AppErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override render(): ReactNode {
    return this.state.failed ? <AppFailed /> : this.props.children;
  }
}

interface ChunkBoundaryProps {
  /** A change (the next time the part is shown) clears the failure, so the part is loaded again. */
  resetKey?: unknown;
  /** Shown while failed, with a way to try again; nothing by default (an overlay simply does not open). */
  fallback?: (retry: () => void) => ReactNode;
  children: ReactNode;
}

/**
 * Around a lazily loaded part (`retryingLazy`): its chunk failing to load (offline, a new deploy) costs that
 * part only, not the screen, and the part is tried again on its next showing or on Retry.
 */
export class ChunkBoundary extends Component<ChunkBoundaryProps, { failed: boolean; resetKey: unknown }> {
  constructor(props: ChunkBoundaryProps) {
    super(props);
    this.state = { failed: false, resetKey: props.resetKey };
  }

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  static getDerivedStateFromProps(
    props: ChunkBoundaryProps,
    state: { failed: boolean; resetKey: unknown },
  ): { failed: boolean; resetKey: unknown } | null {
    return Object.is(props.resetKey, state.resetKey) ? null : { failed: false, resetKey: props.resetKey };
  }

  override componentDidCatch(error: unknown): void {
    // The failed part is off the screen now: its next render (a retry, its next showing) loads it again.
    if (error instanceof ChunkLoadError) error.reload();
  }

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    return this.props.fallback?.(() => this.setState({ failed: false })) ?? null;
  }
}
