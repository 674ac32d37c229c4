/**
 * i18next's context for a sentence that depends on someone's gender: `key_male` / `key_female`. Other and
 * unknown take the context-less key, which is always worded neutrally (server/i18nGenderedKeys.test.ts).
 */
export function genderContext(gender: string | null | undefined): 'male' | 'female' | undefined {
  return gender === 'Male' ? 'male' : gender === 'Female' ? 'female' : undefined;
}
