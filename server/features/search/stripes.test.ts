import { describe, expect, it } from 'vitest';
import { Fuzzer } from '../../test/fuzzer.ts';
import { kmPerDegree } from './distance.ts';
import { ageStretch, flatForRankingKm, rankingKm } from './ranking.ts';
import { ageRingStripes, ringStripes, stripeOf, stripesMax, stripesPerDegree } from './stripes.ts';

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

  it("per age, covers everyone whose ranking distance is in the ring, and leaves out each age's own disc", () => {
    const rng = new Fuzzer(3712);
    let inside = 0;
    let leftOut = 0;
    for (let ring = 0; ring < 150; ring++) {
      const center = { latitude: -70 + rng.next() * 140, longitude: -170 + rng.next() * 340 };
      const cos = Math.cos((center.latitude * Math.PI) / 180);
      const target = 18 + rng.int(60) + (rng.chance(0.3) ? 0.5 : 0);
      const ageMin = 18 + rng.int(40);
      const ageMax = Math.min(100, ageMin + rng.int(50));
      const withinKm = 1 + rng.next() * 60;
      const beyondKm = rng.chance(0.2) ? 0 : rng.next() * withinKm;
      const byStretch = new Map<number, number[]>();
      for (let age = ageMin; age <= ageMax; age++)
        byStretch.set(ageStretch(age, target), [...(byStretch.get(ageStretch(age, target)) ?? []), age]);
      const bands = [...byStretch].map(([stretch, ages]) => ({
        ages,
        fromDeg: flatForRankingKm(beyondKm, stretch) / kmPerDegree,
        toDeg: ((withinKm + 5) / stretch - 5) / kmPerDegree,
      }));
      const rows = ageRingStripes(center, bands);
      if (!rows) continue;
      for (let n = 0; n < 300; n++) {
        const age = ageMin + rng.int(ageMax - ageMin + 1);
        const angle = rng.next() * 2 * Math.PI;
        const flat = rng.next() * withinKm;
        const lat = center.latitude + (flat / kmPerDegree) * Math.sin(angle);
        const lon = center.longitude + (flat / kmPerDegree) * (Math.cos(angle) / cos);
        const e = rankingKm(
          Math.hypot(lat - center.latitude, (lon - center.longitude) * cos) * kmPerDegree,
          age,
          target,
        );
        const hit = rows.some(
          ([stripe, west, east, a]) => a === age && stripe === stripeOf(lat) && lon >= west && lon <= east,
        );
        if (e >= beyondKm && e <= withinKm) {
          inside++;
          expect(hit, `ring ${ring} misses age ${age} at ${lat},${lon} (e ${e})`).toBe(true);
        } else if (e < beyondKm - 12 * (ageStretch(age, target) + 1)) leftOut += hit ? 0 : 1;
      }
    }
    expect(inside).toBeGreaterThan(5_000);
    // Those well inside their own age's disc are read by no range (a stripe's rounding keeps a few near the hole).
    expect(leftOut).toBeGreaterThan(50);
  });
});
