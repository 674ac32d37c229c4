import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod/mini';
import {
  type AdminAuditPage,
  type AdminHeldPhoto,
  type AdminPerson,
  type AdminReport,
  type AdminStats,
  type AdminVerification,
  grantAnswer,
  refundAnswer,
} from '@contract/admin.ts';
import { readStored, storageKeys } from '../../lib/storage.ts';
import { api } from '../client.ts';
import { queryKeys } from './keys.ts';

/**
 * The moderation console's data (server/contract/admin.ts). Only screens/Admin imports this file, so none
 * of it is in a member's first load. The answers are typed by the contract's interfaces and checked only
 * for their outer shape: only admins read them, and the server is the one that wrote them.
 */
const shaped = <T>(key: string) =>
  z.custom<T>((value) => typeof value === 'object' && value !== null && key in value, 'Unexpected response');

const reportsAnswer = shaped<{ reports: AdminReport[] }>('reports');
const verificationsAnswer = shaped<{ verifications: AdminVerification[] }>('verifications');
const photosAnswer = shaped<{ photos: AdminHeldPhoto[] }>('photos');
const peopleAnswer = shaped<{ people: AdminPerson[] }>('people');
const auditAnswer = shaped<AdminAuditPage>('entries');
const statsAnswer = shaped<AdminStats>('series');
const doneAnswer = z.object({ done: z.literal(true) });
const changedAnswer = z.object({ changed: z.boolean() });

export function useAdminReports() {
  return useQuery({
    queryKey: queryKeys.admin('reports'),
    queryFn: async () => (await api.get('/api/admin/reports', reportsAnswer)).reports,
  });
}

export function useAdminVerifications() {
  return useQuery({
    queryKey: queryKeys.admin('verifications'),
    queryFn: async () => (await api.get('/api/admin/verifications', verificationsAnswer)).verifications,
  });
}

export function useAdminPhotos() {
  return useQuery({
    queryKey: queryKeys.admin('photos'),
    queryFn: async () => (await api.get('/api/admin/photos', photosAnswer)).photos,
  });
}

export function useAdminPeople(q: string) {
  return useQuery({
    queryKey: queryKeys.admin('people', q),
    queryFn: async () => (await api.get(`/api/admin/people?q=${encodeURIComponent(q)}`, peopleAnswer)).people,
    enabled: q.trim() !== '',
  });
}

export function useAdminAudit() {
  return useInfiniteQuery({
    queryKey: queryKeys.admin('audit'),
    queryFn: ({ pageParam }) =>
      api.get(`/api/admin/audit?limit=30${pageParam ? `&before=${pageParam}` : ''}`, auditAnswer),
    initialPageParam: 0,
    getNextPageParam: (last) => last.next_before ?? undefined,
  });
}

export function useAdminStats(days: number) {
  return useQuery({
    queryKey: queryKeys.admin('stats', days),
    queryFn: () => api.get(`/api/admin/stats?days=${days}`, statsAnswer),
  });
}

/** Any decision: afterwards every console list is read again (a ban closes reports, a grant shows in the log…). */
export function useAdminAction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ path, body }: { path: string; body: object }) =>
      // Every decision's answer, a refund's included (its premium_until is null when the refund ended premium).
      api.post(path, z.union([doneAnswer, changedAnswer, refundAnswer, grantAnswer]), body),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.admin() }),
  });
}

/**
 * A file only admins may see (a selfie, the audit export): an <img> or a link cannot send the Mini App's bearer token, so with a
 * token it is fetched with one and shown from a blob URL; with the cookie session the plain URL works.
 */
export async function adminFileUrl(path: string, signal: AbortSignal): Promise<string> {
  const token = readStored(storageKeys.jwtToken);
  if (!token) return path;
  const response = await fetch(path, { headers: { Authorization: `Bearer ${token}` }, signal });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return URL.createObjectURL(await response.blob());
}
