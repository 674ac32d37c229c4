/**
 * `npm run bench location` (also in a plain `npm run bench`): what an offline city lookup
 * costs inside the process, without HTTP. Prints the one-time load of the data set and p50/p99 in µs of
 * forward lookups (a typed city name) and reverse lookups (coordinates → nearest city). Figures only.
 */
import { cityGeocoder } from '../server/features/location/geocoder.ts';
import { headline, quantile } from './benchKit.ts';

function summary(name: string, samplesMs: number[]) {
  const sorted = [...samplesMs].sort((a, b) => a - b);
  const us = (ms: number) => (ms * 1000).toFixed(1).padStart(8);
  console.log(
    `${name.padEnd(44)} n=${String(samplesMs.length).padStart(5)}  p50 ${us(quantile(sorted, 0.5))} µs  p99 ${us(quantile(sorted, 0.99))} µs`,
  );
  // No floor to divide by: a lookup is plain in-memory work, so its microseconds are the figure.
  headline({
    measure: name,
    ratio: null,
    floor: 'none',
    value: `p50 ${us(quantile(sorted, 0.5)).trim()} µs, p99 ${us(quantile(sorted, 0.99)).trim()} µs`,
  });
}

function measure(count: number, run: (i: number) => unknown): number[] {
  const samples: number[] = [];
  for (let i = 0; i < count + 1000; i++) {
    const start = performance.now();
    run(i);
    const elapsed = performance.now() - start;
    if (i >= 1000) samples.push(elapsed); // the first 1000 warm up the JIT
  }
  return samples;
}

const loadStart = performance.now();
const geocoder = cityGeocoder();
console.log(
  `${'city data set: load and index (once)'.padEnd(44)} ${(performance.now() - loadStart).toFixed(1)} ms, ${geocoder.cities.length} cities`,
);

// What people type: names in both scripts, with the usual variations, and a few unknown ones.
const names = [
  'Москва',
  'санкт петербург',
  'Екатеринбург',
  'Королев',
  'Moscow',
  'St Petersburg',
  'London',
  'New York',
  'Almaty',
  'Нью-Йорк',
  'Атлантида',
  'Gotham',
];
summary(
  'forward: city name → city',
  measure(20_000, (i) => geocoder.findByName(names[i % names.length] ?? '')),
);

// Points near real cities (each city's centre, moved ~10 km) and points anywhere on the globe.
const cities = geocoder.cities;
let seed = 7;
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const nearCities = Array.from({ length: 1000 }, () => {
  const city = cities[Math.floor(random() * cities.length)];
  return [(city?.lat ?? 0) + (random() - 0.5) * 0.2, (city?.lon ?? 0) + (random() - 0.5) * 0.2] as const;
});
const anywhere = Array.from({ length: 1000 }, () => [-80 + random() * 160, -180 + random() * 360] as const);
const reverse = (points: readonly (readonly [number, number])[]) => (i: number) => {
  const [lat, lon] = points[i % points.length] ?? [0, 0];
  return geocoder.nearest(lat, lon);
};
summary('reverse: coordinates near a city → city', measure(20_000, reverse(nearCities)));
summary('reverse: anywhere on the globe → city or none', measure(20_000, reverse(anywhere)));
