import { z } from 'zod';
import { cityCheckResponse, getCityResponse } from '../../../../server/contract/location.ts';
import { ownProfileResponse } from '../../../../server/contract/profiles.ts';
import { api } from '../client.ts';
import { uploadForm } from '../upload.ts';

export interface NewProfile {
  name: string;
  age: number;
  gender: 'Male' | 'Female';
  city: string;
  bio: string;
  latitude: number | null;
  longitude: number | null;
  photos: Blob[];
}

const message = z.object({ message: z.string() });

export interface ProfileFieldEdits {
  name: string;
  age: number;
  gender: 'Male' | 'Female' | 'Other';
  city: string;
  bio: string;
  /** A new position (the browser's, or the city's looked up); absent keeps the stored one. */
  latitude?: number;
  longitude?: number;
}

export const profileQueries = {
  own: () => api.get('/api/profile', ownProfileResponse),
  remove: () => api.post('/api/delete_profile', z.unknown()),
  /** Photo edits (spec section 7): `payload` JSON {deletedPhotos, newPhotos, order} and the new files. */
  editPhotos(edits: { deleted: string[]; order: string[]; added: Blob[] }, onProgress: (fraction: number) => void) {
    const form = new FormData();
    form.set('payload', JSON.stringify({ deletedPhotos: edits.deleted, newPhotos: edits.added.length, order: edits.order }));
    edits.added.forEach((photo, i) => form.append('newPhotos', photo, `new-${i + 1}.jpg`));
    return uploadForm('/api/edit_profile', form, onProgress).then((answer) => message.parse(answer));
  },
  /** Field edits go as multipart (spec section 7), like the photo edits of the same endpoint. */
  edit(fields: ProfileFieldEdits) {
    const form = new FormData();
    for (const [key, value] of Object.entries(fields)) form.set(key, String(value));
    return uploadForm('/api/edit_profile', form, () => undefined).then((answer) => message.parse(answer));
  },
  cityAt: (latitude: number, longitude: number) => api.post('/api/get_city', getCityResponse, { latitude, longitude }).then((r) => r.city),
  cityCheck: (name: string) => api.post('/api/citycheck', cityCheckResponse, { citycheck: name }),
  create(profile: NewProfile, onProgress: (fraction: number) => void) {
    const form = new FormData();
    form.set('name', profile.name);
    form.set('age', String(profile.age));
    form.set('gender', profile.gender);
    form.set('city', profile.city);
    form.set('bio', profile.bio);
    if (profile.latitude !== null && profile.longitude !== null) {
      form.set('latitude', String(profile.latitude));
      form.set('longitude', String(profile.longitude));
    }
    profile.photos.forEach((photo, i) => form.append('photos', photo, `photo-${i + 1}.jpg`));
    return uploadForm('/api/create_profile', form, onProgress);
  },
};
