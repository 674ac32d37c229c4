import { describe, expect, it } from 'vitest';
import { cityNameKey } from './cityNameKey.ts';
import {
  CityGeocoder,
  cityGeocoder,
  cityName,
  cityRadiusKm,
  distanceKm,
  maxReverseDistanceKm,
  parseCityData,
  type City,
} from './geocoder.ts';

/** The 100 largest cities of Russia by the 2021 census, largest first, and the next 30 for margin. */
const largestRussianCities = [
  'Москва',
  'Санкт-Петербург',
  'Новосибирск',
  'Екатеринбург',
  'Казань',
  'Нижний Новгород',
  'Челябинск',
  'Красноярск',
  'Самара',
  'Уфа',
  'Ростов-на-Дону',
  'Омск',
  'Краснодар',
  'Воронеж',
  'Пермь',
  'Волгоград',
  'Саратов',
  'Тюмень',
  'Тольятти',
  'Ижевск',
  'Барнаул',
  'Ульяновск',
  'Иркутск',
  'Хабаровск',
  'Махачкала',
  'Ярославль',
  'Владивосток',
  'Оренбург',
  'Томск',
  'Кемерово',
  'Новокузнецк',
  'Рязань',
  'Набережные Челны',
  'Астрахань',
  'Киров',
  'Пенза',
  'Балашиха',
  'Липецк',
  'Чебоксары',
  'Калининград',
  'Тула',
  'Ставрополь',
  'Курск',
  'Улан-Удэ',
  'Сочи',
  'Тверь',
  'Магнитогорск',
  'Иваново',
  'Брянск',
  'Белгород',
  'Сургут',
  'Владимир',
  'Чита',
  'Архангельск',
  'Нижний Тагил',
  'Калуга',
  'Якутск',
  'Грозный',
  'Волжский',
  'Смоленск',
  'Саранск',
  'Череповец',
  'Курган',
  'Подольск',
  'Вологда',
  'Орёл',
  'Владикавказ',
  'Тамбов',
  'Мурманск',
  'Стерлитамак',
  'Петрозаводск',
  'Кострома',
  'Нижневартовск',
  'Новороссийск',
  'Йошкар-Ола',
  'Химки',
  'Таганрог',
  'Комсомольск-на-Амуре',
  'Сыктывкар',
  'Нальчик',
  'Шахты',
  'Нижнекамск',
  'Братск',
  'Дзержинск',
  'Орск',
  'Энгельс',
  'Ангарск',
  'Благовещенск',
  'Королёв',
  'Великий Новгород',
  'Мытищи',
  'Старый Оскол',
  'Псков',
  'Люберцы',
  'Бийск',
  'Южно-Сахалинск',
  'Армавир',
  'Балаково',
  'Прокопьевск',
  'Рыбинск',
  // 101 to 130
  'Абакан',
  'Северодвинск',
  'Петропавловск-Камчатский',
  'Норильск',
  'Уссурийск',
  'Волгодонск',
  'Красногорск',
  'Сызрань',
  'Новочеркасск',
  'Каменск-Уральский',
  'Златоуст',
  'Электросталь',
  'Альметьевск',
  'Салават',
  'Миасс',
  'Копейск',
  'Находка',
  'Пятигорск',
  'Хасавюрт',
  'Рубцовск',
  'Березники',
  'Коломна',
  'Майкоп',
  'Одинцово',
  'Ковров',
  'Кисловодск',
  'Домодедово',
  'Нефтекамск',
  'Нефтеюганск',
  'Новочебоксарск',
];

/** Where the centres really are (city hall or central square, rounded), independent of the data set. */
const trueCentres: Record<string, [number, number]> = {
  Москва: [55.7558, 37.6173],
  'Санкт-Петербург': [59.9386, 30.3141],
  Екатеринбург: [56.8389, 60.6057],
  Новосибирск: [55.0302, 82.9204],
  Королёв: [55.9162, 37.8545],
  Орёл: [52.9703, 36.0635],
  London: [51.5074, -0.1278],
  Paris: [48.8566, 2.3522],
  Berlin: [52.52, 13.405],
  'New York': [40.7128, -74.006],
  Tokyo: [35.6895, 139.6917],
  Almaty: [43.2389, 76.8897],
  Minsk: [53.9006, 27.559],
  Tbilisi: [41.7151, 44.8271],
  Yerevan: [40.1792, 44.4991],
};

const geocoder = cityGeocoder();

function expectNear(city: City | null, [lat, lon]: [number, number], km = 5) {
  expect(city).not.toBeNull();
  if (city) expect(distanceKm(city.lat, city.lon, lat, lon)).toBeLessThan(km);
}

describe('city name keys', () => {
  it('ignore case, ё/е, hyphens, spaces, apostrophes and Latin accents', () => {
    const same = [
      ['Санкт-Петербург', 'санкт петербург', '  САНКТ   ПЕТЕРБУРГ ', 'Санкт—Петербург'],
      ['Saint Petersburg', 'St Petersburg', 'St. Petersburg', 'saint-petersburg'],
      ['Королёв', 'Королев', 'КОРОЛЁВ'],
      ['Orël', 'Orel'],
      ['Ryazan’', 'Ryazan'],
      ['Nizhniy Novgorod', 'Nizhny Novgorod'],
      ['Yekaterinburg', 'Ekaterinburg'],
    ];
    for (const group of same) expect(new Set(group.map(cityNameKey)).size, group.join(' / ')).toBe(1);
  });

  it('keep й distinct from и', () => {
    expect(cityNameKey('Йошкар-Ола')).toBe('йошкар ола');
  });
});

describe('forward geocoding (city name → city)', () => {
  it.each(largestRussianCities)('finds %s by its Russian name, in Russia, and answers the same name', (name) => {
    const city = geocoder.findByName(name);
    expect(city?.country).toBe('RU');
    expect(city?.ru).toBe(name);
    // The same city typed without ё, in lower case, with spaces for hyphens.
    expect(geocoder.findByName(name.replace(/ё/g, 'е').toLowerCase().replace(/-/g, ' '))).toBe(city);
  });

  it('has no two of the largest cities resolving to the same place', () => {
    const found = largestRussianCities.map((name) => geocoder.findByName(name));
    expect(new Set(found).size).toBe(largestRussianCities.length);
  });

  it.each(Object.entries(trueCentres))('puts %s within 5 km of its real centre', (name, centre) => {
    expectNear(geocoder.findByName(name), centre);
  });

  it('finds Moscow, Saint Petersburg and others under every usual spelling', () => {
    const moscow = geocoder.findByName('Москва');
    for (const name of ['москва', 'МОСКВА', ' Moscow ', 'moskva', 'Москва, Россия'])
      expect(geocoder.findByName(name)).toBe(moscow);
    const spb = geocoder.findByName('Санкт-Петербург');
    for (const name of [
      'Санкт Петербург',
      'санкт-петербург',
      'St Petersburg',
      'Saint-Petersburg',
      'St. Petersburg',
      'Saint Petersburg',
    ])
      expect(geocoder.findByName(name)).toBe(spb);
    for (const [a, b] of [
      ['Королёв', 'Королев'],
      ['Орёл', 'Орел'],
      ['Артём', 'Артем'],
      ['Щёлково', 'Щелково'],
      ['Orel', 'Oryol'],
      ['Yekaterinburg', 'Екатеринбург'],
      ['Nizhny Novgorod', 'Нижний Новгород'],
      ['Rostov-on-Don', 'Ростов-на-Дону'],
      ['Togliatti', 'Тольятти'],
    ] as const) {
      expect(geocoder.findByName(a), `${a} = ${b}`).not.toBeNull();
      expect(geocoder.findByName(a), `${a} = ${b}`).toBe(geocoder.findByName(b));
    }
  });

  it('finds world cities by English name, and the usual Russian names of cities abroad', () => {
    for (const name of [
      'London',
      'Paris',
      'Berlin',
      'New York',
      'Tokyo',
      'Almaty',
      'Minsk',
      'Tbilisi',
      'Yerevan',
      'Kyiv',
      'Istanbul',
      'Dubai',
    ])
      expect(geocoder.findByName(name)?.en, name).toBe(name);
    expect(geocoder.findByName('Лондон')?.en).toBe('London');
    expect(geocoder.findByName('Кишинев')?.en).toBe('Chisinau');
    expect(geocoder.findByName('Нью Йорк')?.en).toBe('New York');
  });

  it('prefers the most populous of cities sharing a name, and a Russian city for a Russian name', () => {
    expect(geocoder.findByName('Moscow')?.country).toBe('RU'); // not Moscow, Idaho
    expect(geocoder.findByName('Saint Petersburg')?.country).toBe('RU'); // not St. Petersburg, Florida
    const zheleznogorsk = geocoder.findByName('Железногорск');
    expect(zheleznogorsk?.population).toBeGreaterThanOrEqual(93_000);
    expect(geocoder.findByName('Троицк')?.country).toBe('RU');
  });

  it('finds nothing for names it does not know', () => {
    for (const name of ['Атлантида', 'Gotham', 'xyz', '', '   ', '—']) expect(geocoder.findByName(name)).toBeNull();
  });
});

describe('reverse geocoding (coordinates → city)', () => {
  it('names Moscow in Russian and in English from its centre and from its outskirts', () => {
    for (const [lat, lon] of [
      [55.7558, 37.6173], // Red Square
      [55.63, 37.5], // Tyoply Stan, south-west, ~16 km out
      [55.88, 37.48], // Khovrino, north
      [55.983, 37.181], // Zelenograd, part of the city of Moscow
    ] as const) {
      const city = geocoder.nearest(lat, lon);
      expect(city && cityName(city, 'ru'), `${lat},${lon}`).toBe('Москва');
      expect(city && cityName(city, 'en'), `${lat},${lon}`).toBe('Moscow');
    }
  });

  it('names the nearest city elsewhere', () => {
    const at = (lat: number, lon: number) => {
      const city = geocoder.nearest(lat, lon);
      return city && cityName(city, 'ru');
    };
    expect(at(59.75, 30.6)).toBe('Санкт-Петербург'); // Kolpino
    expect(at(56.84, 60.6)).toBe('Екатеринбург');
    expect(at(55.03, 82.92)).toBe('Новосибирск');
    expect(at(55.916, 37.854)).toBe('Королёв');
    expect(at(51.5, -0.12)).toBe('Лондон');
    expect(at(48.86, 2.35)).toBe('Париж');
    expect(at(-33.87, 151.21)).toBe('Сидней');
    expect(at(35.2, 136.9)).toBe('Nagoya'); // no Russian name in the data set: the English one
  });

  it('names the coast for a point off it, and nothing far out at sea or at the poles', () => {
    const offSochi = geocoder.nearest(43.45, 39.5); // the Black Sea, ~25 km off Sochi
    expect(offSochi?.en).toBe('Sochi');
    expect(geocoder.nearest(30, -40)).toBeNull(); // mid-Atlantic
    expect(geocoder.nearest(43, 35)).toBeNull(); // middle of the Black Sea
    expect(geocoder.nearest(0, 0)).toBeNull(); // Gulf of Guinea
    expect(geocoder.nearest(90, 0)).toBeNull();
    expect(geocoder.nearest(-90, 180)).toBeNull();
  });

  it('answers what a scan of every city answers (the grid index loses nothing)', () => {
    const cities = geocoder.cities;
    const brute = (lat: number, lon: number) => {
      let best: City | null = null;
      let bestScore = maxReverseDistanceKm;
      for (const city of cities) {
        const score = distanceKm(lat, lon, city.lat, city.lon) - cityRadiusKm(city);
        if (score < bestScore || (score === bestScore && best === null)) {
          best = city;
          bestScore = score;
        }
      }
      return best ? (best.partOf ?? best) : null;
    };
    // Deterministic points over land-heavy latitudes, including both sides of the antimeridian.
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 1500; i++) {
      const lat = -60 + random() * 140;
      const lon = -180 + random() * 360;
      expect(geocoder.nearest(lat, lon), `${lat},${lon}`).toBe(brute(lat, lon));
    }
  });

  it('looks across the antimeridian', () => {
    const city = (en: string, lat: number, lon: number): City => ({
      id: lat * 1000 + lon,
      en,
      ru: '',
      country: 'XX',
      lat,
      lon,
      population: 10_000,
      partOf: null,
    });
    const small = new CityGeocoder([city('East', 65, 179.9), city('Far', 10, 10)]);
    expect(small.nearest(65, -179.95)?.en).toBe('East');
    expect(small.nearest(65, 179.99)?.en).toBe('East');
  });
});

describe('the data set file', () => {
  it('holds the Russian cities with Russian names and the world with English ones', () => {
    const russian = geocoder.cities.filter((city) => city.country === 'RU');
    expect(russian.length).toBeGreaterThan(1300);
    expect(russian.filter((city) => city.ru).length).toBeGreaterThanOrEqual(300);
    expect(geocoder.cities.every((city) => city.en.length > 0)).toBe(true);
  });

  it('names every place by a unique GeoNames id, the place id profiles store', () => {
    expect(new Set(geocoder.cities.map((city) => city.id)).size).toBe(geocoder.cities.length);
    expect(geocoder.findById(524901)).toMatchObject({ en: 'Moscow', ru: 'Москва' });
    expect(geocoder.findById(498817)).toMatchObject({ en: 'Saint Petersburg', ru: 'Санкт-Петербург' });
    expect(geocoder.findById(1)).toBeNull();
  });

  it('is refused when a row is malformed, rather than answering nonsense', () => {
    expect(() => parseCityData('{"cities":[[1,"Moscow","Москва","RU","55.7",37.6,1000]]}')).toThrow(/row 0/);
    expect(() => parseCityData('{"cities":[[1,"A","","RU",1,1,1,[],5]]}')).toThrow(/missing row 5/);
    expect(() => parseCityData('{}')).toThrow(/cities/);
    const [city, district] = parseCityData('{"cities":[[1,"A","А","RU",1,1,1],[2,"B","","RU",1,1,1,["Bee"],0]]}');
    expect(district?.partOf).toBe(city);
    expect(district?.aliases).toEqual(['Bee']);
  });
});
