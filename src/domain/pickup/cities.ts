/*
 * Geography of the generated pick-up/drop-off locations: a handful of real cities per country, so
 * positions, city names and postal codes fit. Plain data, no code: the generator
 * (pickup-locations.ts) and the coordinate search (pickup-near.ts) read it.
 */

/**
 * A city and where it lies. `key` is the start of the city's postal codes: for `range` countries
 * the lowest leading digits of its range, for `area` countries its area letters (space separated
 * when it has several); elsewhere postal searches do not read it, and it only starts the postal
 * codes of a coordinate search.
 */
export type City = readonly [name: string, latitude: number, longitude: number, key: string];
export type Language = 'nl' | 'de' | 'en' | 'fr' | 'other';

export interface CountryMap {
  language: Language;
  /**
   * How a postal code picks its city: `range` compares the leading digits with each city's key
   * (the city with the greatest key not above them); `area` matches GB-style leading letters;
   * otherwise a hash of the postal code picks one.
   */
  match?: 'range' | 'area';
  /**
   * The country's postal code notation: `#` a digit, `%` a digit but 0, `@` a letter, anything
   * else literal. A city's key overwrites its start (`#### @@` with key `10` gives `10## @@`).
   */
  postal: string;
  cities: readonly City[];
}

export const countryMaps: Record<string, CountryMap> = {
  NL: {
    language: 'nl',
    match: 'range',
    postal: '#### @@',
    cities: [
      ['Amsterdam', 52.3728, 4.8936, '10'],
      ['Hilversum', 52.2292, 5.1669, '12'],
      ['Alkmaar', 52.6324, 4.7534, '18'],
      ['Haarlem', 52.3874, 4.6462, '20'],
      ['Leiden', 52.1601, 4.497, '23'],
      ['Den Haag', 52.0705, 4.3007, '25'],
      ['Delft', 52.0116, 4.3571, '26'],
      ['Rotterdam', 51.9244, 4.4777, '30'],
      ['Dordrecht', 51.8133, 4.6901, '33'],
      ['Utrecht', 52.0907, 5.1214, '35'],
      ['Amersfoort', 52.1561, 5.3878, '38'],
      ['Middelburg', 51.4988, 3.6109, '43'],
      ['Breda', 51.5719, 4.7683, '48'],
      ['Tilburg', 51.5555, 5.0913, '50'],
      ["'s-Hertogenbosch", 51.6978, 5.3037, '52'],
      ['Eindhoven', 51.4416, 5.4697, '56'],
      ['Venlo', 51.3704, 6.1724, '59'],
      ['Maastricht', 50.8514, 5.691, '62'],
      ['Nijmegen', 51.8126, 5.8372, '65'],
      ['Arnhem', 51.9851, 5.8987, '68'],
      ['Apeldoorn', 52.2112, 5.9699, '73'],
      ['Enschede', 52.2215, 6.8937, '75'],
      ['Zwolle', 52.5168, 6.083, '80'],
      ['Leeuwarden', 53.2012, 5.7999, '89'],
      ['Groningen', 53.2194, 6.5665, '97'],
    ],
  },
  BE: {
    language: 'nl',
    match: 'range',
    postal: '####',
    cities: [
      ['Brussel', 50.8503, 4.3517, '10'],
      ['Antwerpen', 51.2194, 4.4025, '20'],
      ['Leuven', 50.8798, 4.7005, '30'],
      ['Liège', 50.6326, 5.5797, '40'],
      ['Namur', 50.4674, 4.872, '50'],
      ['Charleroi', 50.4108, 4.4446, '60'],
      ['Mons', 50.4542, 3.9523, '70'],
      ['Brugge', 51.2093, 3.2247, '80'],
      ['Gent', 51.0543, 3.7174, '90'],
    ],
  },
  LU: {
    language: 'fr',
    postal: '####',
    cities: [
      ['Luxembourg', 49.6116, 6.1319, '1'],
      ['Esch-sur-Alzette', 49.4958, 5.9806, '4'],
    ],
  },
  DE: {
    language: 'de',
    match: 'range',
    postal: '#####',
    cities: [
      ['Dresden', 51.0504, 13.7373, '01'],
      ['Leipzig', 51.3397, 12.3731, '04'],
      ['Berlin', 52.52, 13.405, '10'],
      ['Rostock', 54.0924, 12.0991, '18'],
      ['Hamburg', 53.5511, 9.9937, '20'],
      ['Kiel', 54.3233, 10.1228, '24'],
      ['Bremen', 53.0793, 8.8017, '28'],
      ['Hannover', 52.3759, 9.732, '30'],
      ['Bielefeld', 52.0302, 8.5325, '33'],
      ['Kassel', 51.3127, 9.4797, '34'],
      ['Magdeburg', 52.1205, 11.6276, '39'],
      ['Düsseldorf', 51.2277, 6.7735, '40'],
      ['Dortmund', 51.5136, 7.4653, '44'],
      ['Essen', 51.4556, 7.0116, '45'],
      ['Münster', 51.9607, 7.6261, '48'],
      ['Köln', 50.9375, 6.9603, '50'],
      ['Bonn', 50.7374, 7.0982, '53'],
      ['Mainz', 49.9929, 8.2473, '55'],
      ['Frankfurt am Main', 50.1109, 8.6821, '60'],
      ['Saarbrücken', 49.2402, 6.9969, '66'],
      ['Mannheim', 49.4875, 8.466, '68'],
      ['Stuttgart', 48.7758, 9.1829, '70'],
      ['Karlsruhe', 49.0069, 8.4037, '76'],
      ['Freiburg im Breisgau', 47.999, 7.8421, '79'],
      ['München', 48.1351, 11.582, '80'],
      ['Augsburg', 48.3705, 10.8978, '86'],
      ['Ulm', 48.4011, 9.9876, '89'],
      ['Nürnberg', 49.4521, 11.0767, '90'],
      ['Regensburg', 49.0134, 12.1016, '93'],
      ['Würzburg', 49.7913, 9.9534, '97'],
      ['Erfurt', 50.9848, 11.0299, '99'],
    ],
  },
  AT: {
    language: 'de',
    postal: '####',
    cities: [
      ['Wien', 48.2082, 16.3738, '1'],
      ['Graz', 47.0707, 15.4395, '80'],
      ['Linz', 48.3069, 14.2858, '40'],
      ['Salzburg', 47.8095, 13.055, '50'],
      ['Innsbruck', 47.2692, 11.4041, '60'],
    ],
  },
  CH: {
    language: 'de',
    postal: '####',
    cities: [
      ['Zürich', 47.3769, 8.5417, '80'],
      ['Basel', 47.5596, 7.5886, '40'],
      ['Bern', 46.948, 7.4474, '30'],
      ['Genève', 46.2044, 6.1432, '12'],
      ['Lausanne', 46.5197, 6.6323, '10'],
    ],
  },
  GB: {
    language: 'en',
    match: 'area',
    postal: '@%% #@@',
    cities: [
      ['London', 51.5074, -0.1278, 'E EC N NW SE SW W WC'],
      ['Birmingham', 52.4862, -1.8904, 'B'],
      ['Manchester', 53.4808, -2.2426, 'M'],
      ['Liverpool', 53.4084, -2.9916, 'L'],
      ['Leeds', 53.8008, -1.5491, 'LS'],
      ['Sheffield', 53.3811, -1.4701, 'S'],
      ['Bristol', 51.4545, -2.5879, 'BS'],
      ['Newcastle upon Tyne', 54.9783, -1.6178, 'NE'],
      ['Nottingham', 52.9548, -1.1581, 'NG'],
      ['Leicester', 52.6369, -1.1398, 'LE'],
      ['Oxford', 51.752, -1.2577, 'OX'],
      ['Cambridge', 52.2053, 0.1218, 'CB'],
      ['Brighton', 50.8225, -0.1372, 'BN'],
      ['Southampton', 50.9097, -1.4044, 'SO'],
      ['Cardiff', 51.4816, -3.1791, 'CF'],
      ['Glasgow', 55.8642, -4.2518, 'G'],
      ['Edinburgh', 55.9533, -3.1883, 'EH'],
      ['Aberdeen', 57.1497, -2.0943, 'AB'],
      ['Belfast', 54.5973, -5.9301, 'BT'],
    ],
  },
  IE: {
    language: 'en',
    postal: '@## @###',
    cities: [
      ['Dublin', 53.3498, -6.2603, 'D'],
      ['Cork', 51.8985, -8.4756, 'T'],
      ['Galway', 53.2707, -9.0568, 'H'],
      ['Limerick', 52.6638, -8.6267, 'V'],
    ],
  },
  FR: {
    language: 'fr',
    match: 'range',
    postal: '#####',
    cities: [
      ['Nice', 43.7102, 7.262, '06'],
      ['Marseille', 43.2965, 5.3698, '13'],
      ['Dijon', 47.322, 5.0415, '21'],
      ['Toulouse', 43.6047, 1.4442, '31'],
      ['Bordeaux', 44.8378, -0.5792, '33'],
      ['Montpellier', 43.6108, 3.8767, '34'],
      ['Rennes', 48.1173, -1.6778, '35'],
      ['Grenoble', 45.1885, 5.7245, '38'],
      ['Nantes', 47.2184, -1.5536, '44'],
      ['Orléans', 47.9029, 1.9093, '45'],
      ['Nancy', 48.6921, 6.1844, '54'],
      ['Lille', 50.6292, 3.0573, '59'],
      ['Strasbourg', 48.5734, 7.7521, '67'],
      ['Lyon', 45.764, 4.8357, '69'],
      ['Paris', 48.8566, 2.3522, '75'],
      ['Rouen', 49.4432, 1.0999, '76'],
    ],
  },
  ES: {
    language: 'other',
    postal: '#####',
    cities: [
      ['Madrid', 40.4168, -3.7038, '28'],
      ['Barcelona', 41.3874, 2.1686, '08'],
      ['Valencia', 39.4699, -0.3763, '46'],
      ['Sevilla', 37.3891, -5.9845, '41'],
      ['Bilbao', 43.263, -2.935, '48'],
    ],
  },
  PT: {
    language: 'other',
    postal: '####-###',
    cities: [
      ['Lisboa', 38.7223, -9.1393, '1'],
      ['Porto', 41.1579, -8.6291, '4'],
      ['Braga', 41.5454, -8.4265, '47'],
      ['Coimbra', 40.2033, -8.4103, '30'],
    ],
  },
  IT: {
    language: 'other',
    postal: '#####',
    cities: [
      ['Roma', 41.9028, 12.4964, '001'],
      ['Milano', 45.4642, 9.19, '201'],
      ['Napoli', 40.8518, 14.2681, '801'],
      ['Torino', 45.0703, 7.6869, '101'],
      ['Bologna', 44.4949, 11.3426, '401'],
      ['Firenze', 43.7696, 11.2558, '501'],
    ],
  },
  PL: {
    language: 'other',
    match: 'range',
    postal: '##-###',
    cities: [
      ['Warszawa', 52.2297, 21.0122, '00'],
      ['Kraków', 50.0647, 19.945, '30'],
      ['Wrocław', 51.1079, 17.0385, '50'],
      ['Poznań', 52.4064, 16.9252, '60'],
      ['Gdańsk', 54.352, 18.6466, '80'],
    ],
  },
  CZ: {
    language: 'other',
    postal: '### ##',
    cities: [
      ['Praha', 50.0755, 14.4378, '1'],
      ['Brno', 49.1951, 16.6068, '6'],
      ['Ostrava', 49.8209, 18.2625, '7'],
    ],
  },
  SK: {
    language: 'other',
    postal: '### ##',
    cities: [
      ['Bratislava', 48.1486, 17.1077, '8'],
      ['Košice', 48.7164, 21.2611, '04'],
    ],
  },
  HU: {
    language: 'other',
    postal: '####',
    cities: [
      ['Budapest', 47.4979, 19.0402, '1'],
      ['Debrecen', 47.5316, 21.6273, '40'],
      ['Szeged', 46.253, 20.1414, '67'],
    ],
  },
  SI: {
    language: 'other',
    postal: '####',
    cities: [
      ['Ljubljana', 46.0569, 14.5058, '1'],
      ['Maribor', 46.5547, 15.6459, '2'],
    ],
  },
  HR: {
    language: 'other',
    postal: '#####',
    cities: [
      ['Zagreb', 45.815, 15.9819, '10'],
      ['Split', 43.5081, 16.4402, '21'],
      ['Rijeka', 45.3271, 14.4422, '51'],
    ],
  },
  RO: {
    language: 'other',
    postal: '######',
    cities: [
      ['București', 44.4268, 26.1025, '0'],
      ['Cluj-Napoca', 46.7712, 23.6236, '400'],
      ['Timișoara', 45.7489, 21.2087, '300'],
    ],
  },
  GR: {
    language: 'other',
    postal: '### ##',
    cities: [
      ['Athina', 37.9838, 23.7275, '10'],
      ['Thessaloniki', 40.6401, 22.9444, '54'],
    ],
  },
  LV: {
    language: 'other',
    postal: 'LV-####',
    cities: [
      ['Rīga', 56.9496, 24.1052, 'LV-10'],
      ['Daugavpils', 55.8714, 26.5161, 'LV-54'],
    ],
  },
  DK: {
    language: 'other',
    postal: '####',
    cities: [
      ['København', 55.6761, 12.5683, '1'],
      ['Aarhus', 56.1629, 10.2039, '80'],
      ['Odense', 55.4038, 10.4024, '50'],
    ],
  },
  SE: {
    language: 'other',
    postal: '### ##',
    cities: [
      ['Stockholm', 59.3293, 18.0686, '1'],
      ['Göteborg', 57.7089, 11.9746, '41'],
      ['Malmö', 55.605, 13.0038, '21'],
      ['Uppsala', 59.8586, 17.6389, '75'],
    ],
  },
  NO: {
    language: 'other',
    postal: '####',
    cities: [
      ['Oslo', 59.9139, 10.7522, '0'],
      ['Bergen', 60.3913, 5.3221, '50'],
      ['Trondheim', 63.4305, 10.3951, '70'],
    ],
  },
  FI: {
    language: 'other',
    postal: '#####',
    cities: [
      ['Helsinki', 60.1699, 24.9384, '00'],
      ['Tampere', 61.4978, 23.761, '33'],
      ['Turku', 60.4518, 22.2666, '20'],
    ],
  },
  US: {
    language: 'en',
    postal: '#####',
    cities: [
      ['New York', 40.7128, -74.006, '100'],
      ['Chicago', 41.8781, -87.6298, '606'],
      ['Los Angeles', 34.0522, -118.2437, '900'],
      ['Houston', 29.7604, -95.3698, '770'],
      ['Seattle', 47.6062, -122.3321, '981'],
    ],
  },
  CA: {
    language: 'en',
    postal: '@#@ #@#',
    cities: [
      ['Toronto', 43.6532, -79.3832, 'M'],
      ['Montréal', 45.5017, -73.5673, 'H'],
      ['Vancouver', 49.2827, -123.1207, 'V'],
      ['Calgary', 51.0447, -114.0719, 'T'],
    ],
  },
  AU: {
    language: 'en',
    postal: '####',
    cities: [
      ['Sydney', -33.8688, 151.2093, '20'],
      ['Melbourne', -37.8136, 144.9631, '30'],
      ['Brisbane', -27.4698, 153.0251, '40'],
      ['Perth', -31.9505, 115.8605, '60'],
    ],
  },
};
