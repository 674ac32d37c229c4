/**
 * Coordinates are snapped to a fixed grid of roughly 1 km cells before they are stored: 1/100 of a degree
 * of latitude (1.11 km), and the same ground distance in longitude for the cell's latitude band. Everything
 * downstream (distances, ordering) sees only cell centres, so no sequence of queries can narrow a person
 * down to better than their cell, whatever the caller does.
 */
export const latitudeStep = 0.01;

export function snapCoordinates(latitude: number, longitude: number): { latitude: number; longitude: number } {
  const band = Math.round(latitude / latitudeStep);
  const snappedLatitude = clamp(band * latitudeStep, -89.995, 89.995);
  // Narrower longitude steps toward the poles keep cells about square; fixed per band, so the grid is fixed.
  const longitudeStep = latitudeStep / Math.max(Math.cos((snappedLatitude * Math.PI) / 180), 0.01);
  const column = Math.floor(longitude / longitudeStep);
  const snappedLongitude = normalizeLongitude((column + 0.5) * longitudeStep);
  return { latitude: round6(snappedLatitude), longitude: round6(snappedLongitude) };
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

function normalizeLongitude(value: number): number {
  return ((((value + 180) % 360) + 360) % 360) - 180;
}

function round6(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}
