import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod/mini';
import { cityCheckResponse, getCityResponse } from '@contract/location.ts';
import { profileSavedResponse } from '@contract/profileSaved.ts';
import { ownProfileResponse } from '@contract/profiles.ts';
import { api } from '../client.ts';
import { uploadForm } from '../upload.ts';
import { queryKeys } from './keys.ts';

export interface NewProfile {
  name: string;
  age: number;
  gender: 'Male' | 'Female';
  city: string;
  /** The geocoder's place of `city`: the server names it in each reader's language. */
  placeId: number | null;
  bio: string;
  /** The chosen prompts and answers, in order (may be none). */
  prompts: { prompt_id: number; answer: string }[];
  latitude: number | null;
  longitude: number | null;
  photos: Blob[];
}

export interface ProfileFieldEdits {
  name: string;
  age: number;
  gender: 'Male' | 'Female' | 'Other';
  city: string;
  /** The geocoder's place of `city`, when it is one. */
  place_id?: number;
  bio: string;
  /** The whole new list of prompts (`[]` clears them); absent keeps the stored ones. */
  prompts?: { prompt_id: number; answer: string }[];
  /** A new position (the browser's, or the city's looked up); absent keeps the stored one. */
  latitude?: number;
  longitude?: number;
}

export interface PhotoEdits {
  deleted: string[];
  order: string[];
  added: Blob[];
}

/** Upload progress of a multipart call, 0 to 1. */
type Progress = (fraction: number) => void;

/**
 * How long a copy of the own profile is good. It changes only when its owner saves it, and every save
 * answers the new profile into the cache, so the screen opened after a save need not read it again; an
 * edit made on another device shows within this.
 */
const ownProfileFreshMs = 60_000;

/** The user's own profile (`GET /api/profile`). */
export function useOwnProfile({ fresh = false, enabled = true }: { fresh?: boolean; enabled?: boolean } = {}) {
  // `fresh`: read again on every mount whatever the cache holds, for a form to start from.
  // `enabled`: false where there may be no profile to read (the menu before one is made).
  return useQuery({
    queryKey: queryKeys.ownProfile(),
    queryFn: () => api.get('/api/profile', ownProfileResponse),
    staleTime: ownProfileFreshMs,
    refetchOnMount: fresh ? 'always' : true,
    enabled,
  });
}

/** The place at a position (`POST /api/get_city`): its name in the user's language and its id. */
export function cityAt(latitude: number, longitude: number): Promise<{ city: string; place_id: number }> {
  return api.post('/api/get_city', getCityResponse, { latitude, longitude });
}

/** A city typed by hand, looked up: its proper name and position, or the server's refusal. */
export function useCityCheck() {
  return useMutation({
    mutationFn: (name: string) => api.post('/api/citycheck', cityCheckResponse, { citycheck: name }),
  });
}

/**
 * Creates the profile. The answer's `current_user` goes to the session (a new profile empties the cache,
 * so its `profile` is not kept: it is read when the own profile is first shown).
 */
export function useCreateProfile() {
  return useMutation({
    mutationFn: ({ profile, onProgress }: { profile: NewProfile; onProgress: Progress }) => {
      const form = new FormData();
      form.set('name', profile.name);
      form.set('age', String(profile.age));
      form.set('gender', profile.gender);
      form.set('city', profile.city);
      if (profile.placeId !== null) form.set('place_id', String(profile.placeId));
      form.set('bio', profile.bio);
      // A JSON text field of the form (the server parses it with the contract's rules).
      if (profile.prompts.length) form.set('prompts', JSON.stringify(profile.prompts));
      if (profile.latitude !== null && profile.longitude !== null) {
        form.set('latitude', String(profile.latitude));
        form.set('longitude', String(profile.longitude));
      }
      profile.photos.forEach((photo, i) => form.append('photos', photo, `photo-${i + 1}.jpg`));
      return uploadForm('/api/create_profile', form, onProgress).then((answer) => profileSavedResponse.parse(answer));
    },
  });
}

/**
 * Field edits go as multipart (spec section 7), like the photo edits of the same endpoint. The answer
 * carries the saved profile, put in the cache before the mutation counts as done, so the screen shown
 * next has it without reading it again; its `current_user` is for the session.
 */
export function useEditProfile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (fields: ProfileFieldEdits) => {
      const form = new FormData();
      // Lists (the prompts) go as JSON text fields; the rest as their text.
      for (const [key, value] of Object.entries(fields))
        form.set(key, typeof value === 'object' ? JSON.stringify(value) : String(value));
      return uploadForm('/api/edit_profile', form, () => undefined).then((answer) =>
        profileSavedResponse.parse(answer),
      );
    },
    onSuccess: (saved) => client.setQueryData(queryKeys.ownProfile(), saved.profile),
  });
}

/** Photo edits (spec section 7): `payload` JSON {deletedPhotos, newPhotos, order} and the new files; answered as field edits are. */
export function useEditPhotos() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ edits, onProgress }: { edits: PhotoEdits; onProgress: Progress }) => {
      const form = new FormData();
      form.set(
        'payload',
        JSON.stringify({ deletedPhotos: edits.deleted, newPhotos: edits.added.length, order: edits.order }),
      );
      edits.added.forEach((photo, i) => form.append('newPhotos', photo, `new-${i + 1}.jpg`));
      return uploadForm('/api/edit_profile', form, onProgress).then((answer) => profileSavedResponse.parse(answer));
    },
    onSuccess: (saved) => client.setQueryData(queryKeys.ownProfile(), saved.profile),
  });
}

/**
 * Deletes the own profile. With it go the matches, likes and chats: the caller fetches the session again,
 * and a session without that profile starts from an empty cache (session/SessionProvider.tsx).
 */
export function useDeleteProfile() {
  return useMutation({ mutationFn: () => api.post('/api/delete_profile', z.unknown()) });
}
