/** Browsers by their User-Agent token, the most specific first (Edge and Opera also say "Chrome"). */
const browsers: [RegExp, string][] = [
  [/YaBrowser\//, 'Yandex Browser'],
  [/Edg(e|A|iOS)?\//, 'Edge'],
  [/OPR\/|Opera/, 'Opera'],
  [/Firefox\/|FxiOS\//, 'Firefox'],
  [/Chrome\/|CriOS\//, 'Chrome'],
  [/Safari\//, 'Safari'],
];

const systems: [RegExp, string][] = [
  [/Android/, 'Android'],
  [/iPhone|iPad|iPod/, 'iOS'],
  [/Windows/, 'Windows'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/CrOS/, 'ChromeOS'],
  [/Linux/, 'Linux'],
];

/**
 * "Chrome · Android" from a User-Agent, for the owner's list of signed-in devices: coarse on purpose (no
 * versions or models), so the stored label says no more than the person needs to recognise the device.
 * Null when neither part is known (a script, an empty header).
 */
export function deviceLabel(userAgent: string): string | null {
  const browser = browsers.find(([pattern]) => pattern.test(userAgent))?.[1];
  const system = systems.find(([pattern]) => pattern.test(userAgent))?.[1];
  const parts = [browser, system].filter((p): p is string => p !== undefined);
  return parts.length ? parts.join(' · ') : null;
}
