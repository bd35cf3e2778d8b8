/**
 * How paths pair into resources: an item path with its collection by the path's skeleton (parameter names
 * blanked: `/users/{id}` and `/users/{userId}/posts` share `/users/{}`), the last literal singular or plural
 * (`/widgets` and `/widget/{widgetID}`), a trailing slash aside (`/widgets/` lists what `/widgets/{id}` reads).
 */
import { singular } from './envelope';

export const segments = (path: string): string[] => path.split('/').filter(Boolean);
/** A path parameter segment, with a format suffix or not (Twilio's `/Accounts/{Sid}.json`). */
export const isParam = (segment: string): boolean => /^\{[^}]+\}(\.[A-Za-z0-9]+)?$/.test(segment);
/** `{Sid}.json` -> `Sid`. */
export const paramName = (segment: string): string => /^\{([^}]+)\}/.exec(segment)?.[1] ?? segment;
/** `{Sid}.json` -> `.json`; '' for a bare parameter. */
const suffixOf = (segment: string): string => /^\{[^}]+\}(.*)$/.exec(segment)?.[1] ?? '';

/** `/users/{userId}/posts` -> `/users/{}/posts`: what two spellings of one path have in common. */
export const skeleton = (path: string): string =>
  `/${segments(path)
    .map((s) => (isParam(s) ? `{}${suffixOf(s)}` : s))
    .join('/')}`;

/** An item path's skeleton without its format suffix: what the paths under the item start with. */
export const itemSkeleton = (path: string): string => skeleton(path).replace(/\{\}\.[A-Za-z0-9]+$/, '{}');

/** `widget` -> `widgets`, `policy` -> `policies`, `box` -> `boxes`: the name of a collection of them. */
export function plural(name: string): string {
  if (/[^aeiou]y$/.test(name)) return `${name.slice(0, -1)}ies`;
  if (/(s|x|ch|sh)$/.test(name)) return `${name}es`;
  return `${name}s`;
}

/**
 * The skeleton of the collection an item path (`/widget/{widgetID}`) belongs to: its parent's, or the one with
 * the last literal's other number (`/widgets`) when only that one is a documented collection.
 */
export function collectionKeyOf(itemPath: string, collections: ReadonlySet<string>): string {
  const segs = segments(itemPath);
  const parent = segs.slice(0, -1);
  const key = skeleton(`/${parent.join('/')}`);
  if (collections.has(key)) return key;
  const last = parent[parent.length - 1];
  if (last === undefined || isParam(last)) return key;
  // `/Accounts/{Sid}.json` belongs to `/Accounts.json`.
  const suffix = suffixOf(segs[segs.length - 1] ?? '');
  for (const other of [`${last}${suffix}`, plural(last), singular(last)]) {
    const alt = skeleton(`/${[...parent.slice(0, -1), other].join('/')}`);
    if (other !== last && collections.has(alt)) return alt;
  }
  return key;
}

/** The name of the path parameter at `depth` (0-based segment index) of `template`, if a parameter is there. */
export function paramAt(template: string, depth: number): string | undefined {
  const seg = segments(template)[depth];
  return seg !== undefined && isParam(seg) ? paramName(seg) : undefined;
}

/** The segment index of an item path's own parameter (`/pets/{petId}` -> 1). */
export const itemDepth = (itemPath: string): number => segments(itemPath).length - 1;

/**
 * Does a path address an item (itself, or under it), parameter names aside? `own` is the path's skeleton, `item`
 * the item path's skeleton and its skeleton without a format suffix (`itemSkeleton`).
 */
export function isUnderItem(own: string, item: readonly [string, string]): boolean {
  return own === item[0] || own === item[1] || own.startsWith(`${item[1]}/`);
}
