import { buildFrontend } from '../../scripts/ensure-frontend.ts';
import { launchSharedChromium, sharedChromiumVariable } from './chromium.ts';

/**
 * Once per run: the bundle is built from the current sources, and one Chromium is started for every file
 * (its address reaches the workers through the environment they inherit).
 */
export default async function setup(): Promise<() => Promise<void>> {
  const [server] = await Promise.all([launchSharedChromium(), buildFrontend()]);
  process.env[sharedChromiumVariable] = server.wsEndpoint();
  return async () => {
    await server.close();
  };
}
