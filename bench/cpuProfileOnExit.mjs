/**
 * Preloaded into a bench's server (`NODE_OPTIONS=--import …/cpuProfileOnExit.mjs`, which `--cpu-prof`
 * itself may not be in): profiles the process from its start and writes a V8 CPU profile
 * (`<pid>.cpuprofile`, for Chrome's DevTools) into BENCH_CPU_PROFILE_DIR when it exits.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import path from 'node:path';

const dir = process.env.BENCH_CPU_PROFILE_DIR;
if (dir) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.start');
  process.once('exit', () => {
    // The in-process session answers synchronously, so the profile is written before the process ends.
    session.post('Profiler.stop', (error, result) => {
      if (error || !result) return;
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, `${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  });
}
