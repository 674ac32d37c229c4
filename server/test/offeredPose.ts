import type { PoseId, VerificationState } from '../contract/photoVerification.ts';
import type { Browser } from './browser.ts';

/**
 * The form fields of a selfie in a pose the server offered this person (POST /api/verification refuses any
 * other). Each GET offers a random pose with its signed token, so a test that needs a given pose (the image
 * it made shows a tilted head) asks until that one comes: six poses, a few cheap GETs.
 */
export async function offeredPose(
  browser: Browser,
  wanted?: PoseId | readonly PoseId[],
): Promise<{ pose_id: PoseId; pose_token: string }> {
  const accepted = wanted === undefined ? undefined : typeof wanted === 'string' ? [wanted] : wanted;
  for (let i = 0; i < 500; i++) {
    const res = await browser.get('/api/verification');
    if (res.status !== 200) throw new Error(`GET /api/verification answered ${res.status}`);
    const { pose } = (await res.json()) as VerificationState;
    if (!accepted || accepted.includes(pose.id)) return { pose_id: pose.id, pose_token: pose.token };
  }
  throw new Error(`pose ${String(wanted)} never offered`);
}
