import { buildFrontend } from '../../scripts/ensure-frontend.ts';
import { launchSharedChromium, sharedChromiumVariable } from './chromium.ts';

/**
 * Once per run: the bundle is built from the current sources, and one Chromium is started for every file
 * (its address reaches the workers through the environment they inherit).
 */
export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  // ISKRA_E2E_SHARED_CHROMIUM=0: each file starts its own, as before.
  if (process.env.ISKRA_E2E_SHARED_CHROMIUM === '0') {
    await buildFrontend();
    return undefined;
  }
  const [server] = await Promise.all([launchSharedChromium(), buildFrontend()]);
  process.env[sharedChromiumVariable] = server.wsEndpoint();
  return async () => {
    await server.close();
  };
}
