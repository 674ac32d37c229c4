import { describe, expect, it } from 'vitest';
import en from '../locales/en.json' with { type: 'json' };
import ru from '../locales/ru.json' with { type: 'json' };

type Tree = { [key: string]: string | Tree };

function leaves(tree: Tree, prefix = ''): [string, string][] {
  return Object.entries(tree).flatMap(([k, v]): [string, string][] =>
    typeof v === 'string' ? [[`${prefix}${k}`, v]] : leaves(v, `${prefix}${k}.`),
  );
}

const dictionaries = { ru: ru as Tree, en: en as Tree };
const plural = /_(zero|one|two|few|many|other)$/;
/** A gendered key without its plural suffix: i18next resolves the context first (`key_female_one`). */
const gendered = /^(.*)_(male|female)$/;

describe('gendered texts (i18next context: the reader or the person spoken of)', () => {
  for (const [language, dictionary] of Object.entries(dictionaries)) {
    const keys = new Set(leaves(dictionary).map(([k]) => k.replace(plural, '')));

    it(`${language}: every _male has a _female and a neutral base, and the other way round`, () => {
      const problems: string[] = [];
      for (const key of keys) {
        const match = gendered.exec(key);
        if (!match) continue;
        const [, base = '', gender] = match;
        const twin = `${base}_${gender === 'male' ? 'female' : 'male'}`;
        if (!keys.has(twin)) problems.push(`${key}: no ${twin}`);
        // Other and unknown genders fall back to the base: it must exist (and be worded neutrally).
        if (!keys.has(base)) problems.push(`${key}: no neutral ${base}`);
      }
      expect(problems).toEqual([]);
    });
  }

  it('has the same gendered keys in both languages', () => {
    const genderedKeys = (tree: Tree) =>
      leaves(tree)
        .map(([k]) => k.replace(plural, ''))
        .filter((k) => gendered.test(k))
        .sort();
    expect(genderedKeys(dictionaries.en)).toEqual(genderedKeys(dictionaries.ru));
    expect(genderedKeys(dictionaries.ru).length).toBeGreaterThan(0);
  });

  it('never writes a gender as "(а)" or "(на)" in Russian: a neutral wording or a context instead', () => {
    const offenders = leaves(dictionaries.ru).filter(([, text]) => /[а-яё]\((а|на|ла)\)/i.test(text));
    expect(offenders).toEqual([]);
  });

  it('keeps the base of a reader-addressed line neutral: no masculine "первым" without a context', () => {
    const offenders = leaves(dictionaries.ru).filter(
      ([key, text]) => !gendered.test(key.replace(plural, '')) && /(?<![а-яё])(первым|первой)(?![а-яё])/iu.test(text),
    );
    expect(offenders).toEqual([]);
  });
});
