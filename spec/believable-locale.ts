/**
 * The few words faker needs to make names, addresses and codes, in place of its `en` locale: `en` adds 328 KB
 * (about 120 KB gzipped) to the MSW browser bundle, these lines about 2 KB (see the README's "Libraries and why").
 * faker does the work (seeded draws, formats, e-mail and user name rules); this is only its vocabulary. Domains
 * are the ones RFC 2606 reserves for examples, so an invented address never reaches a real inbox or host.
 */
import type { LocaleDefinition } from '@faker-js/faker';

const FIRST = ['Ada', 'Alan', 'Amara', 'Bea', 'Carlos', 'Chen', 'Dana', 'Emil', 'Fatima', 'Grace', 'Hiro'];
const FIRST_MORE = [
  'Ines',
  'Jonas',
  'Kai',
  'Lena',
  'Malik',
  'Nora',
  'Omar',
  'Priya',
  'Sofia',
  'Tomas',
  'Yara',
];
const LAST = ['Adams', 'Baker', 'Costa', 'Diaz', 'Evans', 'Fischer', 'Garcia', 'Hopper', 'Ito', 'Jensen'];
const LAST_MORE = [
  'Khan',
  'Lovelace',
  'Moreau',
  'Nakamura',
  'Okafor',
  'Patel',
  'Rossi',
  'Silva',
  'Turing',
  'Wong',
];

export const MOCK_LOCALE: LocaleDefinition = {
  metadata: { title: 'petstore-mock (small English)', code: 'en' },
  person: {
    first_name: { generic: [...FIRST, ...FIRST_MORE] },
    last_name: { generic: [...LAST, ...LAST_MORE] },
    last_name_pattern: { generic: [{ value: '{{person.last_name.generic}}', weight: 1 }] },
    name: [{ value: '{{person.firstName}} {{person.lastName}}', weight: 1 }],
  },
  internet: {
    example_email: ['example.com', 'example.net', 'example.org'],
    free_email: ['example.com', 'example.net', 'example.org'],
    domain_suffix: ['com', 'net', 'org'],
  },
  phone_number: {
    format: {
      international: ['+1!##!######', '+44!#########', '+49!##########'],
      human: ['!##-!##-####', '(!##) !##-####'],
      national: ['(!##) !##-####'],
    },
  },
  location: {
    country_code: [
      { alpha2: 'US', alpha3: 'USA', numeric: '840' },
      { alpha2: 'GB', alpha3: 'GBR', numeric: '826' },
      { alpha2: 'DE', alpha3: 'DEU', numeric: '276' },
      { alpha2: 'FR', alpha3: 'FRA', numeric: '250' },
      { alpha2: 'JP', alpha3: 'JPN', numeric: '392' },
      { alpha2: 'BR', alpha3: 'BRA', numeric: '076' },
      { alpha2: 'IN', alpha3: 'IND', numeric: '356' },
      { alpha2: 'NG', alpha3: 'NGA', numeric: '566' },
      { alpha2: 'CA', alpha3: 'CAN', numeric: '124' },
      { alpha2: 'AU', alpha3: 'AUS', numeric: '036' },
    ],
  },
  finance: {
    currency: [
      { name: 'US Dollar', code: 'USD', symbol: '$', numericCode: '840' },
      { name: 'Euro', code: 'EUR', symbol: '€', numericCode: '978' },
      { name: 'Pound Sterling', code: 'GBP', symbol: '£', numericCode: '826' },
      { name: 'Yen', code: 'JPY', symbol: '¥', numericCode: '392' },
      { name: 'Canadian Dollar', code: 'CAD', symbol: '$', numericCode: '124' },
      { name: 'Indian Rupee', code: 'INR', symbol: '₹', numericCode: '356' },
    ],
  },
  word: {
    adjective: ['amber', 'bright', 'calm', 'clever', 'quiet', 'rapid', 'silver', 'sunny', 'swift', 'tidy'],
    noun: ['anchor', 'bridge', 'cloud', 'harbor', 'lantern', 'meadow', 'orbit', 'river', 'summit', 'willow'],
  },
  lorem: {
    word: [
      'alpha',
      'bravo',
      'delta',
      'echo',
      'lorem',
      'ipsum',
      'dolor',
      'sit',
      'amet',
      'tempor',
      'magna',
      'nova',
    ],
  },
};
