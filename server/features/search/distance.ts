export interface Point {
  latitude: number;
  longitude: number;
}

export const earthRadiusKm = 6371;

/** Great-circle distance in kilometres. */
export function haversineKm(a: Point, b: Point): number {
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLon = (b.longitude - a.longitude) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * earthRadiusKm * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * What people are shown: whole kilometres between two (already snapped) points, never below 1, so
 * neighbours in one cell or the next read "1 km" and nothing finer than the grid can be learned.
 */
export function shownDistanceKm(a: Point | null, b: Point | null): number | null {
  if (!a || !b) return null;
  return Math.max(1, Math.round(haversineKm(a, b)));
}

export function pointOf(row: { latitude: number | null; longitude: number | null }): Point | null {
  return row.latitude === null || row.longitude === null ? null : { latitude: row.latitude, longitude: row.longitude };
}

/** Kilometres per degree of latitude (and of longitude times cos(latitude)) in the ordering's metric. */
export const kmPerDegree = 111.19;

/**
 * The distance the search orders by: flat (equirectangular at the caller's latitude), as the SQL computes
 * it, so a bound measured here means the same as one tested in the query. Within a few hundred km it
 * sorts like the great-circle distance.
 */
export function flatKm(from: Point, to: Point): number {
  const cos = Math.cos((from.latitude * Math.PI) / 180);
  return Math.hypot(to.latitude - from.latitude, (to.longitude - from.longitude) * cos) * kmPerDegree;
}

/** A bound farther than anything on Earth in the flat metric: "everywhere was scanned". */
export const everywhereKm = 1_000_000;

/**
 * Longitude never shrinks below this share of latitude in a search box: near a pole a box of the same ground
 * width would span the whole globe. The box is then narrower than its circle east and west.
 */
const boxCosFloor = 0.01;

/** A box's half-width in degrees of longitude, `box` degrees of latitude half-height, at `latitude`. */
export function boxLonSpan(latitude: number, box: number): number {
  return box / Math.max(Math.cos((latitude * Math.PI) / 180), boxCosFloor);
}

/**
 * The radius (km, flat metric) of the circle a box around `point` holds whole: `box` degrees of latitude
 * north and south, but less east and west where its longitude span is clamped near the poles.
 */
export function boxCircleKm(point: Point, box: number): number {
  const cos = Math.cos((point.latitude * Math.PI) / 180);
  return box * kmPerDegree * Math.min(1, cos / boxCosFloor);
}

/**
 * The farthest, in the flat metric, anyone within `km` great-circle kilometres of `point` can be: the
 * corner of the latitude-longitude box around that circle, with a hair of room. Null when the circle
 * reaches a pole or crosses the antimeridian: the flat metric does not wrap, so someone a few kilometres
 * away across it is flat-far, and no flat bound holds everyone the limit lets in.
 */
export function limitFlatKm(point: Point, km: number): number | null {
  const rad = Math.PI / 180;
  const dLat = km / earthRadiusKm;
  const latDeg = dLat / rad;
  if (Math.abs(point.latitude) + latDeg >= 89.9) return null;
  const cos = Math.cos(point.latitude * rad);
  const dLonDeg = Math.asin(Math.min(1, Math.sin(dLat) / cos)) / rad;
  if (Math.abs(point.longitude) + dLonDeg >= 179.9) return null;
  return Math.hypot(latDeg, dLonDeg * cos) * kmPerDegree * (1 + 1e-9) + 1e-6;
}
