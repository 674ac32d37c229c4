import { buildFrontend } from '../../scripts/ensure-frontend.ts';

/** Once per run: the bundle is built from the current sources (each test worker starts its own Chromium: chromium.ts). */
export default async function setup(): Promise<void> {
  await buildFrontend();
}
