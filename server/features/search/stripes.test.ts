import { describe, expect, it } from 'vitest';
import { Fuzzer } from '../../test/fuzzer.ts';
import { ringStripes, stripeOf, stripesMax, stripesPerDegree } from './stripes.ts';

/** The ring's own test, as the first pass writes it (filters.ts position): flat distance in degrees. */
const inRing = (
  center: { latitude: number; longitude: number },
  from: number,
  to: number,
  lat: number,
  lon: number,
) => {
  const cos = Math.cos((center.latitude * Math.PI) / 180);
  const d2 = (lat - center.latitude) ** 2 + ((lon - center.longitude) * cos) ** 2;
  return d2 >= from * from && d2 <= to * to;
};

const covered = (ranges: ReturnType<typeof ringStripes>, lat: number, lon: number) =>
  (ranges ?? []).some(([stripe, west, east]) => stripe === stripeOf(lat) && lon >= west && lon <= east);

describe('a ring cut into stripe ranges', () => {
  it('covers everyone the ring holds, on its edges and on stripe boundaries too', () => {
    const rng = new Fuzzer(2411);
    let inside = 0;
    for (let ring = 0; ring < 400; ring++) {
      const center = { latitude: -80 + rng.next() * 160, longitude: -179 + rng.next() * 358 };
      const to = 0.005 + rng.next() * 0.7;
      const from = rng.chance(0.2) ? 0 : rng.next() * to;
      const ranges = ringStripes(center, from, to);
      if (!ranges) continue;
      const cos = Math.cos((center.latitude * Math.PI) / 180);
      for (let n = 0; n < 300; n++) {
        const angle = rng.next() * 2 * Math.PI;
        // Anywhere in the ring, exactly on its edges, or on a stripe's edge.
        const radius = n % 3 === 0 ? (rng.chance(0.5) ? from : to) : from + rng.next() * (to - from);
        let lat = center.latitude + radius * Math.sin(angle);
        if (n % 5 === 0) lat = Math.round((lat + 90) * stripesPerDegree) / stripesPerDegree - 90;
        const lon = center.longitude + (radius * Math.cos(angle)) / cos;
        if (!inRing(center, from, to, lat, lon)) continue;
        inside++;
        expect(
          covered(ranges, lat, lon),
          `ring ${ring} (${JSON.stringify({ center, from, to })}) misses ${lat},${lon}`,
        ).toBe(true);
      }
    }
    expect(inside).toBeGreaterThan(50_000);
  });

  it('cuts the hole out of the stripes it crosses, so the swiped disc inside is not read', () => {
    // A ring of 1 km beyond 25 km (in degrees): the stripes across the caller's own latitude hold two ranges each.
    const center = { latitude: 55.82, longitude: 37.44 };
    const ranges = ringStripes(center, 25 / 111.19, 26 / 111.19) ?? [];
    const own = ranges.filter(([stripe]) => stripe === stripeOf(center.latitude));
    expect(own).toHaveLength(2);
    for (const [, west, east] of own) expect(center.longitude < west || center.longitude > east).toBe(true);
    // Someone 10 km east of the caller, inside the hole, is in none of them.
    expect(
      covered(ranges, center.latitude, center.longitude + 10 / 111.19 / Math.cos((center.latitude * Math.PI) / 180)),
    ).toBe(false);
  });

  it('leaves a ring too tall, or next to a pole, to its latitude band', () => {
    const tall = (stripesMax + 1) / stripesPerDegree / 2;
    expect(ringStripes({ latitude: 10, longitude: 10 }, 0, tall)).toBeNull();
    expect(ringStripes({ latitude: 10, longitude: 10 }, 0, tall / 2)).not.toBeNull();
    expect(ringStripes({ latitude: 90, longitude: 0 }, 0, 0.1)).toBeNull();
  });
});
