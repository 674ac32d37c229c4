import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod/mini';
import { verificationState, type PoseId, type VerificationState } from '@contract/photoVerification.ts';
import { api } from '../client.ts';
import { uploadForm } from '../upload.ts';
import { queryKeys } from './keys.ts';

/** While a selfie is being checked, how often its state is read again (the check takes seconds). */
const processingPollMs = 2_000;

/**
 * The own photo verification (`GET /api/verification`, issue 40): the status, the pose to take next, and
 * whether face data may be kept. Read again while a selfie is still `processing`.
 */
export function useVerificationState() {
  return useQuery({
    queryKey: queryKeys.photoVerification(),
    queryFn: () => api.get('/api/verification', verificationState),
    refetchInterval: (query) => (query.state.data?.status === 'processing' ? processingPollMs : false),
  });
}

/** A selfie in the offered pose, with the explicit consent the screen asked for; progress 0 to 1. */
export interface SelfieUpload {
  selfie: Blob;
  poseId: PoseId;
  onProgress: (fraction: number) => void;
}

/**
 * `POST /api/verification` (multipart `selfie`, `pose_id`, `consent`): answered with the new state, which
 * goes straight into the cache. A verified selfie also changes the own profile's badge: read it again.
 */
export function useSubmitSelfie() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ selfie, poseId, onProgress }: SelfieUpload) => {
      const form = new FormData();
      form.set('pose_id', poseId);
      // The screen sends nothing before its consent box is ticked; the server checks it again.
      form.set('consent', 'true');
      form.append('selfie', selfie, 'selfie.jpg');
      return uploadForm('/api/verification', form, onProgress).then((answer) => z.parse(verificationState, answer));
    },
    onSuccess: (state) => {
      client.setQueryData(queryKeys.photoVerification(), state);
      if (state.status === 'verified') void client.invalidateQueries({ queryKey: queryKeys.ownProfile() });
    },
  });
}

/**
 * `DELETE /api/verification/consent`: every kept face description is deleted (the badge stays). The
 * contract names no answer: a state in it is taken as it is, anything else has the state read again.
 */
export function useWithdrawConsent() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete('/api/verification/consent', z.unknown()),
    onSuccess: (answer) => {
      const state = z.safeParse(verificationState, answer);
      if (state.success) client.setQueryData<VerificationState>(queryKeys.photoVerification(), state.data);
      else void client.invalidateQueries({ queryKey: queryKeys.photoVerification() });
    },
  });
}
