/**
 * The search key of a city name: what people type and what the data set spells must meet.
 *
 * - case, surrounding and repeated spaces, and hyphens vs spaces do not matter ("санкт петербург",
 *   "Санкт-Петербург", "Saint-Petersburg");
 * - ё is е (Russian writes ё optionally: Королёв/Королев, Орёл/Орел);
 * - accents on Latin letters do not matter (Zürich/Zurich, Orël/Orel), but Cyrillic й stays й;
 * - apostrophes, quotes and dots go (GeoNames writes Ryazan’, people write Ryazan; "St." is "St");
 * - in Latin script, "St" is "Saint", a final -iy/-yy is -y (Nizhniy/Nizhny, Groznyy/Grozny) and an
 *   initial Ye- is E- (Yekaterinburg/Ekaterinburg), the usual variants of transliterating Russian.
 * The same function keys the data set and the query, so a fold can only add matches.
 */
export function cityNameKey(name: string): string {
  // Most names are plain Latin words: skip Unicode normalisation for them (it dominates the load time).
  const plain = /^[A-Za-z ]*$/.test(name);
  return latinFolds(plain ? name.toLowerCase().replace(/ +/g, ' ').trim() : unicodeFolds(name));
}

/*
 * Patterns with letters beyond ASCII are built from strings: esbuild writes a string as ASCII escapes but
 * copies a regular expression literal as it is, and one such character in a compiled file makes V8 hold that
 * file's whole text at two bytes a character for as long as the server runs (scripts/buildServer.mjs).
 */
const yo = new RegExp('ё', 'g');
const quotes = new RegExp('[\'’ʹʼ`´"«»“”„]', 'g');
const separators = new RegExp('[\\s\\-‐‑‒–—_.,()/]+', 'g');

function unicodeFolds(name: string): string {
  return (
    name
      .normalize('NFD')
      .toLowerCase()
      // Marks off Latin letters only; NFC below puts Cyrillic й (и + breve) back together.
      .replace(/([a-z])\p{M}+/gu, '$1')
      .normalize('NFC')
      .replace(yo, 'е')
      .replace(quotes, '')
      .replace(separators, ' ')
      .trim()
  );
}

function latinFolds(key: string): string {
  return key
    .replace(/\bst\b/g, 'saint')
    .replace(/\bye(?=[a-z])/g, 'e')
    .replace(/([a-z])(?:iy|yy)\b/g, '$1y');
}

/** Whether a key is written in Cyrillic: a Russian name, for which Russian cities come first. */
export function isCyrillic(key: string): boolean {
  return /\p{Script=Cyrillic}/u.test(key);
}
