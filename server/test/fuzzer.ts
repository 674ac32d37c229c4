/**
 * Malformed input for the API fuzz test (server/fuzz.test.ts): a small seeded PRNG, so a run can be
 * repeated exactly from its seed, and generators of the values attackers and broken clients send: wrong
 * types, huge and odd unicode strings, numbers JSON cannot hold, deep nesting, prototype-pollution keys,
 * junk path segments and query strings with repeated keys.
 */

/** JSON text sent exactly as written: `NaN` (invalid JSON), `-0`, `1e999` (Infinity once parsed), deep nesting. */
export class RawJson {
  constructor(readonly text: string) {}
}

export type JunkValue = null | boolean | number | string | RawJson | JunkValue[] | { [key: string]: JunkValue };

/** `levels` nested arrays or objects around a number, as raw JSON text (JSON.stringify would recurse that deep). */
export function deepJson(levels: number, kind: 'array' | 'object'): RawJson {
  return kind === 'array'
    ? new RawJson(`${'['.repeat(levels)}1${']'.repeat(levels)}`)
    : new RawJson(`${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`);
}

/** Serialises a junk value; raw pieces go in verbatim, object keys such as `__proto__` stay own keys. */
export function jsonText(value: JunkValue): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map(jsonText).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}:${jsonText(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/** How a value reads in a query string, a multipart field or a path segment. */
export function plainText(value: JunkValue): string {
  if (typeof value === 'string') return value;
  if (value instanceof RawJson) return value.text;
  return jsonText(value);
}

/**
 * Percent-encodes text for a URL. A lone surrogate has no UTF-8 form (encodeURIComponent throws), so it
 * goes as the bytes a careless encoder would produce for it (CESU-8), which are invalid UTF-8.
 */
export function encodeJunk(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    out +=
      code >= 0xd800 && code <= 0xdfff
        ? `%ED%${(0xa0 | ((code >> 6) & 0x1f)).toString(16).toUpperCase()}%${(0x80 | (code & 0x3f)).toString(16).toUpperCase()}`
        : encodeURIComponent(char);
  }
  return out;
}

/** Strings that break naive code: empties, huge ones, unicode edge cases, numbers in disguise, markup. */
export const junkStrings: readonly string[] = [
  '',
  ' ',
  '\t\n\r',
  'a'.repeat(1_000),
  'я'.repeat(10_000),
  'x'.repeat(70_000),
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff',
  'a\ud83d',
  '\ud83d\ude00\ud800',
  '\u202eevil\u202c',
  '\u200f\u200e',
  '\u200b\u200c\u200d\ufeff',
  '\u2028\u2029',
  '\uffff\ufffe',
  'Z\u0324\u0354\u0367\u0311\u0313a\u0308\u0356\u032d\u0308\u0307',
  '👩‍❤️‍💋‍👨'.repeat(50),
  'ﷺ'.repeat(100),
  '1',
  '-1',
  '0',
  '-0',
  '1.5',
  '1e3',
  '1e309',
  'NaN',
  'Infinity',
  '-Infinity',
  '0x10',
  '1_000',
  ' 7 ',
  '１２',
  '2147483648',
  '9007199254740993',
  '99999999999999999999999',
  'null',
  'undefined',
  'true',
  '[object Object]',
  '__proto__',
  'constructor',
  "' OR 1=1 --",
  '"; DROP TABLE users; --',
  '<script>alert(1)</script>',
  '../../../../etc/passwd',
  '..\\..\\windows',
  '%00',
  '%',
  '${7*7}{{7*7}}',
  '\\',
  '"',
];

/** Numbers, some only writable as raw JSON. `NaN` and `Infinity` are not JSON at all: the parser must refuse them. */
export const junkNumbers: readonly (number | RawJson)[] = [
  0,
  -1,
  1,
  1.5,
  -2_147_483_649,
  2_147_483_647,
  2_147_483_648,
  4_294_967_296,
  2 ** 53 + 2,
  Number.MAX_SAFE_INTEGER,
  Number.MAX_VALUE,
  Number.MIN_VALUE,
  new RawJson('-0'),
  new RawJson('1e999'),
  new RawJson('-1e999'),
  new RawJson('1e-999'),
  new RawJson('123456789012345678901234567890'),
  new RawJson('NaN'),
  new RawJson('Infinity'),
  new RawJson('-Infinity'),
  new RawJson('0x10'),
  new RawJson('01'),
  new RawJson('1.'),
];

/** Keys with a meaning to JavaScript objects, and other odd keys. */
export const junkKeys: readonly string[] = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '',
  ' ',
  '\u0000',
  '\ud800',
  'a'.repeat(300),
  'a.b',
  'a[0]',
  '$where',
];

/** Path segments, already in URL form: junk ids, bad percent-encoding, traversal, huge. */
export const junkSegments: readonly string[] = [
  '0',
  '-1',
  '1.5',
  '1e3',
  '0x1',
  'NaN',
  'Infinity',
  '2147483648',
  '99999999999999999999',
  '%00',
  '%',
  '%zz',
  '%E0%A4%A',
  '%ED%A0%80',
  '%C0%AF',
  '%FF%FE',
  '%2e%2e',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '..%5C..%5C',
  '%20',
  '__proto__',
  'constructor',
  'a'.repeat(5_000),
  encodeURIComponent('я\u202e\u200b'),
  encodeURIComponent('1\u0000'),
  '%F0%9F%98%80',
];

/** Raw bodies for a JSON route: broken, empty, oversized, deeply nested, polluting. */
export const junkJsonBodies: readonly string[] = [
  '',
  '{',
  '{"a":',
  '}',
  '{"a":1,}',
  "{'a':1}",
  'NaN',
  '{"a":NaN}',
  '\ufeff{}',
  '{"a":1,"a":2}',
  'null',
  '"text"',
  '[]',
  '[{}]',
  'true',
  '1',
  '-0',
  '1e999',
  '{"__proto__":{"polluted":1}}',
  '{"constructor":{"prototype":{"polluted":1}}}',
  '{"__proto__":null}',
  deepJson(5_000, 'object').text,
  deepJson(5_000, 'array').text,
  // 30,000 levels still fit the 64 KB JSON limit; 100,000 do not.
  deepJson(30_000, 'array').text,
  deepJson(100_000, 'array').text,
  JSON.stringify({ a: 'x'.repeat(70_000) }),
];

/** Content types a JSON route may be sent by mistake or on purpose. */
export const junkContentTypes: readonly string[] = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'application/json; charset=nonsense',
  'application/vnd.api+json',
  'application/json, text/html',
  'multipart/form-data',
  'multipart/form-data; boundary=',
  'application/octet-stream',
  '*/*',
  'application/json; boundary=x; charset="utf-8',
];

export class Fuzzer {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** mulberry32: tiny, fast and good enough to spread the cases; the same seed gives the same run. */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }

  int(below: number): number {
    return Math.floor(this.next() * below);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(list: readonly T[]): T {
    const item = list[this.int(list.length)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  }

  /** A junk string, or now and then a random mix of awkward characters. */
  string(): string {
    if (this.chance(0.8)) return this.pick(junkStrings);
    const alphabet = [
      'a',
      'Я',
      '0',
      ' ',
      '\u0000',
      '\ud800',
      '\udc00',
      '\u202e',
      '\u200b',
      '"',
      '\\',
      '%',
      '&',
      '=',
      '<',
      '\n',
      '😀',
      '\u0301',
    ];
    return Array.from({ length: 1 + this.int(40) }, () => this.pick(alphabet)).join('');
  }

  number(): number | RawJson {
    return this.pick(junkNumbers);
  }

  key(known: readonly string[]): string {
    return known.length && this.chance(0.5) ? this.pick(known) : this.pick(junkKeys);
  }

  /** Any JSON-ish value: scalars of every type, arrays where scalars belong, objects, deep nesting. */
  value(depth = 0): JunkValue {
    const kind = this.int(depth > 2 ? 5 : 9);
    switch (kind) {
      case 0:
        return null;
      case 1:
        return this.chance(0.5);
      case 2:
      case 3:
        return this.string();
      case 4:
        return this.number();
      case 5:
        return Array.from({ length: this.int(4) }, () => this.value(depth + 1));
      case 6:
        return Object.fromEntries(Array.from({ length: 1 + this.int(3) }, () => [this.key([]), this.value(depth + 1)]));
      case 7:
        return deepJson(this.pick([50, 1_000, 5_000]), this.chance(0.5) ? 'array' : 'object');
      default:
        return [this.string()];
    }
  }
}
