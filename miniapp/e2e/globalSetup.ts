import { buildFrontend } from '../../scripts/ensure-frontend.ts';
import { ensureChromium } from './chromium.ts';

/** Once per run: the browser exists, and the bundle is built from the current sources. */
export default async function setup(): Promise<void> {
  ensureChromium();
  await buildFrontend();
}
