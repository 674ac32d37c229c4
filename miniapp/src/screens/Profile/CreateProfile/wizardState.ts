import { maxAge, minAge } from '@contract/profiles.ts';
import { promptsAnswered, type PromptDraft } from '../../../components/PromptEditor.tsx';
import type { TranslationKey } from '../../../i18n.ts';

export type Gender = 'Male' | 'Female';
export const stepCount = 5;
export type Step = 1 | 2 | 3 | 4 | 5;
/** The optional prompts step (issue 38), between the photos and the review. */
export const promptsStep: Step = 4;

/** A cropped photo and its preview (an object URL, let go when the photo or the wizard goes). */
export interface WizardPhoto {
  blob: Blob;
  url: string;
}

/** Everything the profile wizard holds until Create (spec sections 5, 9). */
export interface WizardState {
  step: Step;
  name: string;
  /** As typed: checked when leaving step 1. */
  age: string;
  gender: Gender | null;
  /** The city found (by position or by name); empty until then. */
  city: string;
  /** The geocoder's place of `city` (sent as place_id, so each reader sees the city in their language); null until found. */
  placeId: number | null;
  coords: [number, number] | null;
  /** The manual entry: shown after "Enter city" or when the position could not be had. */
  manual: boolean;
  cityInput: string;
  bio: string;
  /** The chosen prompts and their answers, in order (none is fine: the step is optional). */
  prompts: PromptDraft[];
  photos: WizardPhoto[];
  /** A picked photo being cropped (its object URL). */
  cropping: string | null;
  /** The one message line under the steps: already in the user's language. */
  error: string | null;
}

export const initialWizard: WizardState = {
  step: 1,
  name: '',
  age: '',
  gender: null,
  city: '',
  placeId: null,
  coords: null,
  manual: false,
  cityInput: '',
  bio: '',
  prompts: [],
  photos: [],
  cropping: null,
  error: null,
};

export type WizardAction =
  | {
      type: 'edit';
      fields: Partial<Pick<WizardState, 'name' | 'age' | 'gender' | 'cityInput' | 'bio' | 'manual' | 'prompts'>>;
    }
  /** Next: `problem` is what stops it (from `stepProblem`, translated), or null. */
  | { type: 'next'; problem: string | null }
  | { type: 'back' }
  /** The browser's position gave a city: spec section 9 moves straight on to the photos. */
  | { type: 'located'; city: string; placeId: number; coords: [number, number] }
  /** The position could not be had: the message, and the manual entry instead. */
  | { type: 'locateFailed'; message: string }
  | { type: 'cityFound'; city: string; placeId: number; coords: [number, number] | null }
  | { type: 'cropStarted'; url: string }
  | { type: 'cropEnded'; photo: WizardPhoto | null }
  | { type: 'photoRemoved'; photo: WizardPhoto }
  | { type: 'failed'; message: string | null }
  /** The draft's photos, read back from IndexedDB after a reload: before any added since. */
  | { type: 'photosRestored'; photos: WizardPhoto[] }
  /** Cancel: everything entered goes. */
  | { type: 'reset' };

export function wizardReducer(state: WizardState, action: WizardAction): WizardState {
  switch (action.type) {
    case 'edit':
      return { ...state, ...action.fields };
    case 'next':
      return action.problem
        ? { ...state, error: action.problem }
        : { ...state, error: null, step: Math.min(stepCount, state.step + 1) as Step };
    case 'back':
      return { ...state, step: Math.max(1, state.step - 1) as Step };
    case 'located':
      return { ...state, city: action.city, placeId: action.placeId, coords: action.coords, error: null, step: 3 };
    case 'locateFailed':
      return { ...state, error: action.message, manual: true };
    case 'cityFound':
      return { ...state, city: action.city, placeId: action.placeId, coords: action.coords, error: null };
    case 'cropStarted':
      return { ...state, cropping: action.url };
    case 'cropEnded':
      return { ...state, cropping: null, photos: action.photo ? [...state.photos, action.photo] : state.photos };
    case 'photoRemoved':
      return { ...state, photos: state.photos.filter((p) => p !== action.photo) };
    case 'failed':
      return { ...state, error: action.message };
    case 'photosRestored':
      return { ...state, photos: [...action.photos, ...state.photos] };
    case 'reset':
      return initialWizard;
  }
}

/** What stops the current step from going on (an i18n key), or null: each step checks its own fields. */
export function stepProblem(state: WizardState): TranslationKey | null {
  if (state.step === 1) {
    if (!state.name.trim() || !state.age || !state.gender) return 'app.wizard.required';
    const years = Number(state.age);
    if (!Number.isInteger(years) || years < minAge) return 'app.wizard.minAge';
    if (years > maxAge) return 'app.wizard.maxAge';
  }
  if (state.step === 2 && !state.city) return 'app.wizard.cityRequired';
  if (state.step === 3 && state.photos.length === 0) return 'app.wizard.photoRequired';
  if (state.step === promptsStep && !promptsAnswered(state.prompts)) return 'app.prompts.answerRequired';
  return null;
}
