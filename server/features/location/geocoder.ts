import { readFileSync } from 'node:fs';
import type { Language } from '../../../locales/index.ts';
import { cityNameKey, isCyrillic } from './cityNameKey.ts';

/** One city of the data set (server/features/location/cities.json, built by scripts/build-cities.ts). */
export interface City {
  /** The GeoNames id: the place id a profile stores (profiles.place_id); it never changes between rebuilds. */
  id: number;
  en: string;
  /** Empty when the data set has no Russian name for it: Russian speakers then get the English one. */
  ru: string;
  country: string;
  lat: number;
  lon: number;
  population: number;
  /** The city this place belongs to (a district of Moscow or Saint Petersburg), named by reverse lookups. */
  partOf: City | null;
}

export function cityName(city: City, language: Language): string {
  return language === 'ru' && city.ru ? city.ru : city.en;
}

/**
 * Reverse lookups answer the nearest city, counting a city's size: distances are measured to its edge,
 * approximated as a circle whose area grows with the population (radius in km = this × √population:
 * Moscow ≈ 16 km, a town of 100,000 ≈ 1.6 km). Without it, a point inside a big city but far from its
 * centre would be named after a small neighbouring town.
 */
const radiusPerSqrtPopulation = 0.005;
/** Past this distance (from the edge, in km) nothing is near enough to be "your city": the sea, the tundra. */
export const maxReverseDistanceKm = 150;
/** The grid of the reverse index: cells of 1° × 1°, so a lookup reads a handful of cells, not every city. */
const cellDegrees = 1;
const kmPerDegreeLat = 111.2;

const earthRadiusKm = 6371;
const toRad = (degrees: number) => (degrees * Math.PI) / 180;

/** Great-circle distance (haversine), in km. */
export function distanceKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dLat = toRad(lat2 - lat1);
  const dLon = toRad(lon2 - lon1);
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(toRad(lat1)) * Math.cos(toRad(lat2)) * Math.sin(dLon / 2) ** 2;
  return 2 * earthRadiusKm * Math.asin(Math.min(1, Math.sqrt(a)));
}

const latCells = Math.round(180 / cellDegrees);
const lonCells = Math.round(360 / cellDegrees);
const latCell = (lat: number) => Math.min(latCells - 1, Math.max(0, Math.floor((lat + 90) / cellDegrees)));
const lonCell = (lon: number) => ((Math.floor((lon + 180) / cellDegrees) % lonCells) + lonCells) % lonCells;

/** One cell of the reverse index, with what bounds the distance to any city in it. */
interface Cell {
  row: number;
  col: number;
  cities: City[];
  /** The largest city radius in the cell: a city's score can be below its distance by at most this. */
  maxRadiusKm: number;
}

/** Offline geocoding over the shipped data set: city name → city, coordinates → nearest city. */
export class CityGeocoder {
  /** Search key → cities of that name or alias, in preference order (largest first). */
  private readonly byName = new Map<string, City[]>();
  private readonly byId = new Map<number, City>();
  private readonly grid = new Map<number, Cell>();
  private readonly maxRadiusKm: number;
  /** Every city, largest first. */
  readonly cities: readonly City[];

  /** `cities` come largest first (the data set's order), which makes the preference order of a name. */
  constructor(cities: readonly (City & { aliases?: readonly string[] })[]) {
    this.cities = cities;
    let maxRadius = 0;
    for (const city of cities) {
      this.byId.set(city.id, city);
      for (const name of [city.en, city.ru, ...(city.aliases ?? [])]) {
        const key = cityNameKey(name);
        if (!key) continue;
        const list = this.byName.get(key);
        if (!list) this.byName.set(key, [city]);
        else if (!list.includes(city)) list.push(city);
      }
      const row = latCell(city.lat);
      const col = lonCell(city.lon);
      const radius = cityRadiusKm(city);
      const cell = this.grid.get(row * lonCells + col);
      if (cell) {
        cell.cities.push(city);
        cell.maxRadiusKm = Math.max(cell.maxRadiusKm, radius);
      } else {
        this.grid.set(row * lonCells + col, { row, col, cities: [city], maxRadiusKm: radius });
      }
      maxRadius = Math.max(maxRadius, radius);
    }
    this.maxRadiusKm = maxRadius;
  }

  /** The place of a place id (GeoNames id), or null when the data set does not hold it. */
  findById(id: number): City | null {
    return this.byId.get(id) ?? null;
  }

  /**
   * The city a person typed, or null. Several cities share many names: the largest wins, except that a
   * name typed in Cyrillic prefers a Russian city (Троицк is the one in Russia, whatever else is bigger).
   * "Москва, Россия" style input is tried by its first part too.
   */
  findByName(input: string): City | null {
    const key = cityNameKey(input);
    const found = this.lookup(key);
    if (found) return found;
    const first = input.split(',')[0];
    return first !== undefined && first !== input ? this.lookup(cityNameKey(first)) : null;
  }

  private lookup(key: string): City | null {
    const list = key ? this.byName.get(key) : undefined;
    if (!list) return null;
    return (isCyrillic(key) ? list.find((city) => city.country === 'RU') : undefined) ?? list[0] ?? null;
  }

  /**
   * The city a point is in or nearest to (see radiusPerSqrtPopulation), or null when nothing is within
   * maxReverseDistanceKm. Reads the grid cells within reach, nearest first, and stops at the first cell
   * that cannot hold a better city: usually one to a few cells.
   */
  nearest(lat: number, lon: number): City | null {
    const reachKm = maxReverseDistanceKm + this.maxRadiusKm;
    const latSpan = Math.ceil(reachKm / kmPerDegreeLat / cellDegrees);
    const cosLat = Math.cos(toRad(Math.min(89, Math.abs(lat) + latSpan * cellDegrees)));
    const lonSpan = Math.ceil(reachKm / (kmPerDegreeLat * cosLat) / cellDegrees);
    // Near the poles the window is the whole circle of longitude: read each column once.
    const columns =
      2 * lonSpan + 1 >= lonCells
        ? Array.from({ length: lonCells }, (_, c) => c)
        : Array.from(
            { length: 2 * lonSpan + 1 },
            (_, i) => (((lonCell(lon) + i - lonSpan) % lonCells) + lonCells) % lonCells,
          );
    const row0 = latCell(lat);
    const candidates: { cell: Cell; bound: number }[] = [];
    for (let r = Math.max(0, row0 - latSpan); r <= Math.min(latCells - 1, row0 + latSpan); r++) {
      for (const c of columns) {
        const cell = this.grid.get(r * lonCells + c);
        if (cell) candidates.push({ cell, bound: cellDistanceBoundKm(lat, lon, cell) - cell.maxRadiusKm });
      }
    }
    candidates.sort((a, b) => a.bound - b.bound);
    let best: City | null = null;
    let bestScore = maxReverseDistanceKm;
    for (const { cell, bound } of candidates) {
      if (bound > bestScore) break;
      for (const city of cell.cities) {
        const score = distanceKm(lat, lon, city.lat, city.lon) - cityRadiusKm(city);
        // Equal scores (rare) go to the larger city, whatever order the cells were read in.
        if (score < bestScore || (score === bestScore && (best === null || city.population > best.population))) {
          best = city;
          bestScore = score;
        }
      }
    }
    return best ? (best.partOf ?? best) : null;
  }
}

/**
 * A lower bound of the distance from a point to anything in a cell, from the haversine formula:
 * sin²(d/2) = sin²(Δφ/2) + cos φ1 cos φ2 sin²(Δλ/2), where Δφ and Δλ are at least their smallest values
 * over the cell and cos φ is at least the cosine of the largest |latitude| involved.
 */
function cellDistanceBoundKm(lat: number, lon: number, cell: Cell): number {
  const south = cell.row * cellDegrees - 90;
  const north = south + cellDegrees;
  const west = cell.col * cellDegrees - 180;
  const dLat = lat < south ? south - lat : lat > north ? lat - north : 0;
  const east = west + cellDegrees;
  const inside = lon >= west && lon <= east;
  const gap = (from: number, to: number) => {
    const d = Math.abs(from - to) % 360;
    return d > 180 ? 360 - d : d;
  };
  const dLon = inside ? 0 : Math.min(gap(lon, west), gap(lon, east));
  const maxAbsLat = Math.min(90, Math.max(Math.abs(lat), Math.abs(south), Math.abs(north)));
  const h = Math.sin(toRad(dLat) / 2) ** 2 + Math.cos(toRad(maxAbsLat)) ** 2 * Math.sin(toRad(dLon) / 2) ** 2;
  return 2 * earthRadiusKm * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The radius of a city's approximating circle, in km (see radiusPerSqrtPopulation). */
export function cityRadiusKm(city: City): number {
  return radiusPerSqrtPopulation * Math.sqrt(city.population);
}

const dataUrl = new URL('./cities.json', import.meta.url);

/**
 * Parses the data set file's text into cities, largest first, with their aliases. The file is ours, but a
 * bad rebuild should fail loudly at the first lookup rather than answer nonsense; a hand check is used
 * because a schema library takes longer than the rest of the loading on ten thousand rows.
 */
export function parseCityData(text: string): (City & { aliases: string[] })[] {
  const data: unknown = JSON.parse(text);
  const rows: unknown = typeof data === 'object' && data !== null && 'cities' in data ? data.cities : undefined;
  if (!Array.isArray(rows)) throw new Error('cities.json: no "cities" array');
  const isString = (value: unknown): value is string => typeof value === 'string';
  const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
  const parsed = (rows as unknown[]).map((row, i) => {
    if (!Array.isArray(row)) throw new Error(`cities.json: row ${i} is not an array`);
    const [id, en, ru, country, lat, lon, population, aliases = [], partOf] = row as unknown[];
    if (
      !(Number.isInteger(id) && (id as number) > 0) ||
      !isString(en) ||
      !isString(ru) ||
      !isString(country) ||
      !isNumber(lat) ||
      !isNumber(lon) ||
      !isNumber(population) ||
      !Array.isArray(aliases) ||
      !aliases.every(isString) ||
      !(partOf === undefined || Number.isInteger(partOf))
    ) {
      throw new Error(`cities.json: row ${i} is malformed`);
    }
    const city = { id: id as number, en, ru, country, lat, lon, population, aliases, partOf: null as City | null };
    return { city, partOf: partOf as number | undefined };
  });
  for (const [i, { city, partOf }] of parsed.entries()) {
    if (partOf === undefined) continue;
    const parent = parsed[partOf];
    if (!parent) throw new Error(`cities.json: row ${i} is part of a missing row ${partOf}`);
    city.partOf = parent.city;
  }
  return parsed.map(({ city }) => city);
}

let shared: CityGeocoder | undefined;

/**
 * The geocoder over the shipped data set, built on first use (a few hundred KB of JSON and an index:
 * tens of milliseconds, once per process) so that processes and tests that never look up a city never
 * pay for it.
 */
export function cityGeocoder(): CityGeocoder {
  shared ??= new CityGeocoder(parseCityData(readFileSync(dataUrl, 'utf8')));
  return shared;
}
