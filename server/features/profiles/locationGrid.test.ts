import { describe, expect, it } from 'vitest';
import { snapCoordinates } from './locationGrid.ts';

const km = (a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }) => {
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLon = (b.longitude - a.longitude) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(h));
};

describe('snapCoordinates', () => {
  it('moves a point by less than a cell and never keeps the exact position', () => {
    for (const [latitude, longitude] of [
      [55.75123, 37.61876],
      [59.93863, 30.31413],
      [-33.8688, 151.2093],
      [64.5401, 40.5433],
      [0.0001, -0.0001],
    ] as const) {
      const snapped = snapCoordinates(latitude, longitude);
      expect(km({ latitude, longitude }, snapped)).toBeLessThan(1.1);
      expect(snapped).not.toEqual({ latitude, longitude });
    }
  });

  it('maps every point of a cell to the same centre, so repeated queries learn nothing finer', () => {
    const centre = snapCoordinates(55.7512, 37.6187);
    const neighbours = [
      [55.7505, 37.6181],
      [55.7549, 37.6199],
      [55.7451, 37.6185],
    ] as const;
    for (const [lat, lon] of neighbours) expect(snapCoordinates(lat, lon)).toEqual(centre);
    expect(snapCoordinates(centre.latitude, centre.longitude)).toEqual(centre);
  });

  it('keeps cells about 1 km wide in longitude at Moscow and Murmansk latitudes', () => {
    for (const latitude of [55.75, 68.97]) {
      const a = snapCoordinates(latitude, 37.0);
      const b = snapCoordinates(latitude, 37.3);
      const columns = Math.abs(b.longitude - a.longitude);
      const cellKm = km({ latitude, longitude: 0 }, { latitude, longitude: columns }) / Math.round(km(a, b) / 1.11);
      expect(cellKm).toBeGreaterThan(0.9);
      expect(cellKm).toBeLessThan(1.3);
    }
  });
});
