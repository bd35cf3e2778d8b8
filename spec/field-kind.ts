/**
 * Pure: what a field's name says it holds (`avatar_url` a URL, `createdAt` a time, `IPAddress` an address), for
 * the values invented where the document gives none (./believable.ts). Names are read as words, whatever their
 * case style: `created_at`, `createdAt`, `Created-At` and `CREATED_AT` are the same two words.
 */

export type Kind =
  | 'email'
  | 'url'
  | 'time'
  | 'id'
  | 'version'
  | 'firstName'
  | 'lastName'
  | 'fullName'
  | 'username'
  | 'phone'
  | 'country'
  | 'currency'
  | 'ipv4'
  | 'ipv6'
  | 'hostname'
  | 'mac'
  | 'digest'
  | 'city'
  | 'street'
  | 'postal'
  | 'company'
  | 'text';

/** The words of a name: `avatarURL` -> avatar, url; `IPAddress` -> ip, address; `created_at` -> created, at. */
export function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '');
}

const TIME_NAMES = new Set([
  'created',
  'updated',
  'modified',
  'deleted',
  'timestamp',
  'datetime',
  'date',
  'time',
]);
const TIME_LAST = new Set(['at', 'date', 'time', 'timestamp', 'datetime', 'ts']);
const URL_LAST = new Set(['url', 'uri', 'href', 'link', 'website', 'homepage']);
const TEXT_LAST = new Set([
  'description',
  'summary',
  'comment',
  'message',
  'note',
  'notes',
  'bio',
  'text',
  'reason',
]);
const PERSON_FIRST = new Set([
  'contact',
  'author',
  'owner',
  'customer',
  'display',
  'full',
  'holder',
  'cardholder',
]);
// A hash of something (an alert's `fingerprint`, a commit's `sha`): hexadecimal digits.
const DIGESTS = new Set([
  'fingerprint',
  'hash',
  'sha',
  'sha1',
  'sha256',
  'checksum',
  'digest',
  'md5',
  'etag',
]);
const USERNAMES = new Set(['username', 'user_name', 'login', 'screen_name', 'nickname', 'handle']);
const POSTAL = new Set(['zip', 'zip_code', 'zipcode', 'postcode', 'post_code', 'postal_code', 'postalcode']);
const HOSTS = new Set(['hostname', 'host', 'domain', 'fqdn', 'host_name', 'domain_name']);

/** The kinds a whole name (words joined by `_`) names. */
const WHOLE: Record<string, Kind> = {
  first_name: 'firstName',
  firstname: 'firstName',
  given_name: 'firstName',
  givenname: 'firstName',
  last_name: 'lastName',
  lastname: 'lastName',
  family_name: 'lastName',
  familyname: 'lastName',
  surname: 'lastName',
  name: 'fullName',
  fullname: 'fullName',
  version: 'version',
  mac_address: 'mac',
};

function kindOfWords(words: string[]): Kind | undefined {
  const whole = words.join('_');
  const last = words[words.length - 1] ?? '';
  const fromWhole = WHOLE[whole];
  if (fromWhole) return fromWhole;
  if (words.includes('email') || last === 'mail') return 'email';
  if (URL_LAST.has(last)) return 'url';
  if (TIME_NAMES.has(whole) || (words.length > 1 && TIME_LAST.has(last))) return 'time';
  // `created_on`, `modified_on`; not `add_on`.
  if (last === 'on' && /ed$/.test(words[words.length - 2] ?? '')) return 'time';
  if (last === 'id' || last === 'uuid' || last === 'guid') return 'id';
  if (last === 'version') return 'version';
  if (DIGESTS.has(last)) return 'digest';
  if (USERNAMES.has(whole)) return 'username';
  if (last === 'name' && words.length === 2 && PERSON_FIRST.has(words[0] ?? '')) return 'fullName';
  if (words.some((w) => ['phone', 'telephone', 'mobile', 'fax', 'msisdn'].includes(w))) return 'phone';
  if (words.includes('country') && (last === 'country' || last === 'code')) return 'country';
  if (words.includes('currency') && (last === 'currency' || last === 'code')) return 'currency';
  if (words.includes('ipv6')) return 'ipv6';
  if (words.includes('ip') || words.includes('ipv4')) return 'ipv4';
  if (HOSTS.has(whole) || last === 'hostname') return 'hostname';
  // A postal address's lines (Stripe's `address.line1`, `postal_code`, `city`).
  if (last === 'city' || last === 'town') return 'city';
  if (POSTAL.has(whole) || (last === 'code' && words.includes('postal'))) return 'postal';
  if (/^(line[12]|address[12]?|street[12]?)$/.test(last) && !words.includes('email')) return 'street';
  if (last === 'company' || whole === 'company_name' || whole === 'organization_name') return 'company';
  if (TEXT_LAST.has(last)) return 'text';
  return undefined;
}

/** What a field's name says it holds, or undefined when the name says nothing we know. */
export function kindOfName(name: string | undefined): Kind | undefined {
  return name ? kindOfWords(wordsOf(name)) : undefined;
}

const FUTURE = [
  'expires',
  'expiry',
  'expiration',
  'expire',
  'due',
  'until',
  'end',
  'ends',
  'next',
  'deadline',
];
const RECENT = ['updated', 'modified', 'last', 'seen', 'changed'];
const PAST = ['created', 'registered', 'joined', 'started', 'start', 'issued', 'opened', 'born', 'birth'];

/** Which way from now a time field lies: `expires_at` ahead, `updated_at` today, `created_at` in the last month. */
export function timeDirection(words: readonly string[]): 'future' | 'recent' | 'past' | 'near' {
  if (words.some((w) => FUTURE.includes(w))) return 'future';
  if (words.some((w) => RECENT.includes(w))) return 'recent';
  if (words.some((w) => PAST.includes(w))) return 'past';
  return 'near';
}
