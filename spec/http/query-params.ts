/**
 * Pure: a query parameter whose schema is an object or an array, read when its plain name was not sent but its
 * members were (OpenAPI 3 §4.8.12.4 styles): `style: form, explode: true` (the default) spreads an object's
 * properties as names of their own (`CustomRedirectDomain=x`); `deepObject` brackets them
 * (`filter[status]=open`); the AWS query protocol dots them (`TrackingOptions.CustomRedirectDomain=x`,
 * `Tags.member.1.Key=k`). Each is read into the value the schema judges, leaves typed by it.
 */
import type { ParamSpec } from '../compile';
import { isObject } from '../json';
import { arrayItems, objectShape, type Schema } from '../schema-shape';
import { decodeForm } from './form-decode';

/** An AWS list (`{ member: [...] }`, or `{ "1": ..., "2": ... }`) as the array the schema names. */
function asArray(value: unknown): unknown {
  if (!isObject(value)) return value;
  const v = value as Record<string, unknown>;
  if (Array.isArray(v.member) && Object.keys(v).length === 1) return v.member;
  const keys = Object.keys(v);
  if (keys.length > 0 && keys.every((k) => /^\d{1,6}$/.test(k)))
    return keys.sort((a, b) => Number(a) - Number(b)).map((k) => v[k]);
  return value;
}

/** The parameter's value from the raw query string (without `?`), or undefined when none of its members came. */
export function flattenedQueryValue(
  p: Pick<ParamSpec, 'name' | 'schema' | 'style' | 'explode'>,
  raw: string,
): unknown {
  const items = arrayItems(p.schema);
  const shape = items ? null : objectShape(p.schema);
  if (!items && !shape) return undefined;
  // Members of this parameter only: the name bracketed or dotted, or (an exploded form object) its properties.
  const spread = shape && (p.style ?? 'form') === 'form' && p.explode !== false;
  const mine = (name: string): boolean =>
    name.startsWith(`${p.name}[`) ||
    name.startsWith(`${p.name}.`) ||
    (!!spread && name in (shape?.properties ?? {}));
  const parts = raw.split('&').filter((part) => {
    const eq = part.indexOf('=');
    try {
      return mine(decodeURIComponent((eq < 0 ? part : part.slice(0, eq)).replace(/\+/g, ' ')));
    } catch {
      return false;
    }
  });
  if (parts.length === 0) return undefined;
  const schema: Schema = {
    type: 'object',
    properties: {
      ...(spread ? shape?.properties : {}),
      [p.name]: items ? { type: 'object', properties: { member: p.schema } } : p.schema,
    },
  };
  const read = decodeForm(parts.join('&'), schema);
  if (!read.ok) return undefined;
  const own = read.value[p.name];
  if (items) return own === undefined ? undefined : asArray(own);
  const spreadOut = Object.fromEntries(Object.entries(read.value).filter(([k]) => k !== p.name));
  return { ...spreadOut, ...(isObject(own) ? own : {}) };
}
