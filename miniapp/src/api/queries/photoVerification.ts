import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { z } from 'zod/mini';
import { verificationState, type VerificationState } from '@contract/photoVerification.ts';
import { api } from '../client.ts';
import { uploadForm } from '../upload.ts';
import { queryKeys } from './keys.ts';

const readState = () => api.get('/api/verification', verificationState);

/**
 * The own photo verification (`GET /api/verification`, issue 40): the status, a pose to take next, and
 * whether face data may be kept. The server decides each selfie within its request, so nothing is polled.
 * Whenever it shows `verified` (a selfie's answer, or a moderator's approval read later) the own profile's
 * badge is read again.
 */
export function useVerificationState() {
  const client = useQueryClient();
  const query = useQuery({ queryKey: queryKeys.photoVerification(), queryFn: readState });
  const verified = query.data?.status === 'verified';
  useEffect(() => {
    if (verified) void client.invalidateQueries({ queryKey: queryKeys.ownProfile() });
  }, [verified, client]);
  return query;
}

/** A fresh state read now (a new pose and its token, when the offered one expired). */
export function useFreshVerificationState() {
  const client = useQueryClient();
  return () => client.fetchQuery({ queryKey: queryKeys.photoVerification(), queryFn: readState, staleTime: 0 });
}

/** A selfie in the offered pose, with the explicit consent the screen asked for; progress 0 to 1. */
export interface SelfieUpload {
  selfie: Blob;
  pose: Pose;
  onProgress: (fraction: number) => void;
}

type Pose = VerificationState['pose'];

/**
 * `POST /api/verification` (multipart `selfie`, `pose_id`, `pose_token`, `consent`): answered with the new
 * state, which goes straight into the cache (a `verified` one has the badge read again, above).
 */
export function useSubmitSelfie() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ selfie, pose, onProgress }: SelfieUpload) => {
      const form = new FormData();
      form.set('pose_id', pose.id);
      // Proves the server offered this pose to this person (it keeps no record of what a GET offered).
      form.set('pose_token', pose.token);
      // The screen sends nothing before its consent box is ticked; the server checks it again.
      form.set('consent', 'true');
      form.append('selfie', selfie, 'selfie.jpg');
      return uploadForm('/api/verification', form, onProgress).then((answer) => z.parse(verificationState, answer));
    },
    onSuccess: (state) => {
      client.setQueryData(queryKeys.photoVerification(), state);
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
