import { maxPromptAnswerLength, maxPrompts } from '@contract/prompts.ts';
import type { PromptDraft } from '../../../components/PromptEditor.tsx';
import type { Gender, Step, WizardState } from './wizardState.ts';

/**
 * The profile wizard's draft, kept until Create or Cancel so a reload (or Telegram reopening the Mini App)
 * does not throw away what was entered. The fields live in sessionStorage (this tab only, gone when it
 * closes); the cropped photos, several MB, in IndexedDB under a random id the fields name. Both are per
 * user: the key holds the user id, so another account signing in on this browser starts empty.
 * Every storage failure (private mode, quota) just means no draft: the wizard works as before.
 */

/** What of the wizard's state is kept: not the cropper, the message line or the photos (kept apart). */
export type DraftFields = Pick<
  WizardState,
  'step' | 'name' | 'age' | 'gender' | 'city' | 'placeId' | 'coords' | 'manual' | 'cityInput' | 'bio' | 'prompts'
>;
export interface Draft {
  /** The IndexedDB key of this draft's photos. */
  id: string;
  fields: DraftFields;
}

const fieldsKey = (userId: number) => `profileDraft:${userId}`;
const databaseName = 'iskra-drafts';
const photoStore = 'photos';
/** Photos of a draft whose tab closed without Create or Cancel are dropped after a day. */
const staleAfterMs = 86_400_000;

interface StoredPhotos {
  id: string;
  savedAt: number;
  /** Bytes rather than Blobs: older WebKit (Telegram on iOS) could not keep Blobs in IndexedDB. */
  photos: { bytes: ArrayBuffer; type: string }[];
}

const steps: readonly Step[] = [1, 2, 3, 4, 5];

/** The chosen prompts read back: whole items only, at most three, each prompt once. */
function parsePrompts(value: unknown): PromptDraft[] {
  if (!Array.isArray(value)) return [];
  const kept: PromptDraft[] = [];
  for (const item of value as unknown[]) {
    const { prompt_id, answer } = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
    if (typeof prompt_id !== 'number' || typeof answer !== 'string' || kept.some((p) => p.prompt_id === prompt_id))
      continue;
    kept.push({ prompt_id, answer: answer.slice(0, maxPromptAnswerLength) });
  }
  return kept.slice(0, maxPrompts);
}
const genders: readonly Gender[] = ['Male', 'Female'];

/** The stored draft read back, checked field by field: anything unexpected means no draft. */
function parseDraft(text: string): Draft | null {
  const value: unknown = JSON.parse(text);
  if (typeof value !== 'object' || value === null) return null;
  const { id, fields } = value as { id?: unknown; fields?: unknown };
  if (typeof id !== 'string' || typeof fields !== 'object' || fields === null) return null;
  const { step, name, age, gender, city, placeId, coords, manual, cityInput, bio, prompts } = fields as Record<
    string,
    unknown
  >;
  const text_ = (v: unknown) => (typeof v === 'string' ? v : '');
  const point =
    Array.isArray(coords) && coords.length === 2 && coords.every((c) => typeof c === 'number')
      ? (coords as [number, number])
      : null;
  return {
    id,
    fields: {
      step: steps.includes(step as Step) ? (step as Step) : 1,
      name: text_(name),
      age: text_(age),
      gender: genders.includes(gender as Gender) ? (gender as Gender) : null,
      city: text_(city),
      // The geocoder's place id, so the restored city is still shown in each reader's language.
      placeId: typeof placeId === 'number' && Number.isSafeInteger(placeId) && placeId > 0 ? placeId : null,
      coords: point,
      manual: manual === true,
      cityInput: text_(cityInput),
      bio: text_(bio),
      prompts: parsePrompts(prompts),
    },
  };
}

export function readDraft(userId: number): Draft | null {
  try {
    const text = sessionStorage.getItem(fieldsKey(userId));
    return text ? parseDraft(text) : null;
  } catch {
    return null;
  }
}

/** Keeps the draft's fields; a wizard still as it opened keeps nothing (no key left behind to clear). */
export function writeDraft(userId: number, draft: Draft): void {
  const { step, name, age, gender, city, manual, cityInput, bio, prompts } = draft.fields;
  const blank =
    step === 1 && !name && !age && !gender && !city && !manual && !cityInput && !bio && prompts.length === 0;
  try {
    if (blank) sessionStorage.removeItem(fieldsKey(userId));
    else sessionStorage.setItem(fieldsKey(userId), JSON.stringify(draft));
  } catch {
    /* storage unavailable or full: the draft lasts for this page only */
  }
}

export function newDraftId(userId: number): string {
  return `${userId}:${crypto.randomUUID()}`;
}

function openDatabase(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(databaseName, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(photoStore, { keyPath: 'id' });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('indexedDB'));
  });
}

/** One read-write or read transaction on the photo store, resolved when it completes. */
async function withStore<T>(
  mode: IDBTransactionMode,
  work: (store: IDBObjectStore) => IDBRequest<T> | null,
): Promise<T | undefined> {
  const database = await openDatabase();
  try {
    return await new Promise<T | undefined>((resolve, reject) => {
      const transaction = database.transaction(photoStore, mode);
      const request = work(transaction.objectStore(photoStore));
      transaction.oncomplete = () => resolve(request ? request.result : undefined);
      transaction.onerror = () => reject(transaction.error ?? new Error('indexedDB'));
      transaction.onabort = () => reject(transaction.error ?? new Error('indexedDB'));
    });
  } finally {
    database.close();
  }
}

/** The draft's photos as Blobs, in order; none when there are none or IndexedDB is unavailable. */
export async function readDraftPhotos(id: string): Promise<Blob[]> {
  try {
    const stored = await withStore<StoredPhotos | undefined>(
      'readonly',
      (store) => store.get(id) as IDBRequest<StoredPhotos | undefined>,
    );
    return (stored?.photos ?? []).map((p) => new Blob([p.bytes], { type: p.type }));
  } catch {
    return [];
  }
}

/**
 * Keeps the draft's photos, and drops those of drafts abandoned a day ago. Writes are chained so an
 * older list never lands after a newer one.
 */
let writes: Promise<unknown> = Promise.resolve();
export function writeDraftPhotos(id: string, photos: Blob[]): Promise<void> {
  const write = writes.then(async () => {
    const entry: StoredPhotos = {
      id,
      savedAt: Date.now(),
      photos: await Promise.all(photos.map(async (p) => ({ bytes: await p.arrayBuffer(), type: p.type }))),
    };
    await withStore('readwrite', (store) => {
      // No photos, no entry: nothing is kept that Create or Cancel would have to clear.
      if (photos.length) store.put(entry);
      else store.delete(id);
      const stale = store.openCursor();
      stale.onsuccess = () => {
        const cursor = stale.result;
        if (!cursor) return;
        if ((cursor.value as StoredPhotos).savedAt < Date.now() - staleAfterMs) cursor.delete();
        cursor.continue();
      };
      return null;
    });
  });
  writes = write.catch(() => undefined);
  return write.catch(() => undefined);
}

/** Create or Cancel: the fields and the photos go. */
export function clearDraft(userId: number, id: string): Promise<void> {
  try {
    sessionStorage.removeItem(fieldsKey(userId));
  } catch {
    /* nothing was stored */
  }
  const removal = writes.then(() =>
    withStore('readwrite', (store) => {
      store.delete(id);
      return null;
    }),
  );
  writes = removal.catch(() => undefined);
  return removal.then(
    () => undefined,
    () => undefined,
  );
}
