import { afterEach, beforeEach } from 'vitest';
import type { Dialect } from '../../db/client.ts';
import { StatementLog } from '../../db/statementCounter.ts';
import { createTestApp, type TestApp } from './testApp.ts';
import { createTestDatabase } from './testDatabase.ts';

/**
 * For a statement budget test: a fresh test app for each test whose database reports every statement it sends
 * to `log` (`log.during(work)` answers those of `work`). Call inside a `describe`; `app()` in a test.
 */
export function useStatementCountingApp(dialect: Dialect): { log: StatementLog; app: () => TestApp } {
  const log = new StatementLog();
  let current: TestApp | undefined;
  beforeEach(async () => {
    const database = await createTestDatabase(dialect, { onStatement: log.record });
    current = await createTestApp(dialect, { database });
  });
  afterEach(async () => {
    await current?.close();
    await current?.database.drop();
    current = undefined;
  });
  return {
    log,
    app: () => {
      if (!current) throw new Error('the app exists only inside a test');
      return current;
    },
  };
}
