/**
 * The sweep's second reader of XML answers (issue 40): Prism reads XML as text, and our own reader
 * (spec/xml.ts) is the one the mock writes with, so a mistake in it would be shared. This judge parses with
 * another parser (fast-xml-parser) and maps elements to the schema by the OpenAPI `xml` object's rules as the
 * specification states them (§4.8.26), written again here on purpose: the root element (named by the schema's
 * `xml.name` when it gives one), properties as child elements or attributes, arrays as repeated elements named
 * by their items' `xml.name` (else the property's name), inside a wrapper when `wrapped`. The value is then
 * judged by the document's compiled validator (ajv).
 */
import { XMLParser } from 'fast-xml-parser';
import type { ValidateFunction } from 'ajv';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

interface Flat {
  types: string[];
  properties: Json;
  items?: unknown;
  additional?: unknown;
  xml: { name?: string; attribute?: boolean; wrapped?: boolean };
}

/** The schema with its `allOf` parts laid together (AWS writes `allOf: [{$ref}, {xml: {name}}]`). */
function flat(schema: unknown, depth = 0): Flat {
  const f: Flat = { types: [], properties: {}, xml: {} };
  if (!isObject(schema) || depth > 16) return f;
  for (const part of Array.isArray(schema.allOf) ? schema.allOf : []) {
    const p = flat(part, depth + 1);
    f.types.push(...p.types);
    Object.assign(f.properties, p.properties);
    Object.assign(f.xml, p.xml);
    f.items ??= p.items;
    f.additional ??= p.additional;
  }
  const t = schema.type;
  f.types.push(...(typeof t === 'string' ? [t] : Array.isArray(t) ? (t as string[]) : []));
  if (isObject(schema.properties)) Object.assign(f.properties, schema.properties);
  if (schema.items !== undefined) f.items = schema.items;
  if (schema.additionalProperties !== undefined) f.additional = schema.additionalProperties;
  if (isObject(schema.xml)) Object.assign(f.xml, schema.xml);
  return f;
}

const isArray = (f: Flat) => f.types.includes('array') || (f.types.length === 0 && f.items !== undefined);
const isObj = (f: Flat) =>
  f.types.includes('object') || Object.keys(f.properties).length > 0 || isObject(f.additional);
const list = (v: unknown): unknown[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** An element's text: the parser gives a string, or `#text` beside attributes. */
const textOf = (node: unknown): string =>
  typeof node === 'string' ? node : isObject(node) && typeof node['#text'] === 'string' ? node['#text'] : '';

function scalar(text: string, f: Flat): unknown {
  if ((f.types.includes('integer') || f.types.includes('number')) && text.trim() !== '') {
    const n = Number(text);
    if (Number.isFinite(n)) return n;
  }
  if (f.types.includes('boolean') && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}

function value(node: unknown, schema: unknown, depth: number): unknown {
  const f = flat(schema);
  if (depth > 64) return undefined;
  if (isArray(f)) {
    // A bare array element: its children, whatever their name, are the items.
    if (!isObject(node)) return [];
    const names = Object.keys(node).filter((k) => !k.startsWith('@_') && k !== '#text');
    return names.flatMap((n) => list(node[n]).map((x) => value(x, f.items, depth + 1)));
  }
  if (isObj(f)) return object(isObject(node) ? node : {}, f, depth);
  return scalar(textOf(node), f);
}

function object(node: Json, f: Flat, depth: number): Json {
  const out: Json = {};
  const seen = new Set<string>();
  for (const [key, ps] of Object.entries(f.properties)) {
    const p = flat(ps);
    const name = local(p.xml.name ?? key);
    if (p.xml.attribute) {
      if (node[`@_${name}`] !== undefined) out[key] = scalar(String(node[`@_${name}`]), p);
      continue;
    }
    if (isArray(p)) {
      const itemName = local(flat(p.items).xml.name ?? name);
      const holder = p.xml.wrapped ? node[name] : node;
      if (p.xml.wrapped) seen.add(name);
      else seen.add(itemName);
      if (p.xml.wrapped && holder === undefined) continue;
      const items = isObject(holder) ? list(holder[itemName]) : [];
      if (items.length > 0 || p.xml.wrapped) out[key] = items.map((x) => value(x, p.items, depth + 1));
      continue;
    }
    seen.add(name);
    if (node[name] !== undefined)
      out[key] = value(Array.isArray(node[name]) ? node[name][0] : node[name], ps, depth + 1);
  }
  // Elements the schema does not name: read by `additionalProperties` (a map), else kept as text, so that
  // `additionalProperties: false` refuses them.
  const extra = isObject(f.additional) ? f.additional : undefined;
  for (const [k, v] of Object.entries(node)) {
    if (k.startsWith('@_') || k === '#text' || seen.has(k)) continue;
    const one = Array.isArray(v) ? v[0] : v;
    out[k] = extra ? value(one, extra, depth + 1) : Array.isArray(v) ? v.map(textOf) : textOf(v);
  }
  return out;
}

/** A name's local part: the parser drops prefixes (`removeNSPrefix`), so a schema's `media:content` is `content`. */
const local = (name: string): string => name.slice(name.indexOf(':') + 1);

/**
 * Prefixes used in element or attribute names and declared nowhere (`xmlns:p="…"`): Namespaces in XML §5
 * makes such a document one no namespace-aware parser reads. A scan of the text, not of scopes: a prefix
 * declared on another branch passes, which the writer never relies on.
 */
export function undeclaredPrefixes(body: string): string[] {
  const declared = new Set([
    'xml',
    'xmlns',
    ...[...body.matchAll(/\sxmlns:([\w.-]+)\s*=/g)].map((m) => m[1]),
  ]);
  const used = new Set(
    [...body.matchAll(/<\/?([\w.-]+):[\w.-]+|\s([\w.-]+):[\w.-]+\s*=/g)].map((m) => m[1] ?? m[2] ?? ''),
  );
  return [...used].filter((p) => p && !declared.has(p)).map((p) => `xml: prefix ${p} declared nowhere`);
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
});

/** What this reader finds wrong with an XML answer of `schema` (empty: it conforms). */
export function xmlJudge(body: string, schema: unknown, validate: ValidateFunction): string[] {
  let doc: Json;
  try {
    doc = parser.parse(body, true) as Json;
  } catch (e) {
    return [`xml: not XML (${(e as Error).message.split('\n')[0] ?? ''})`];
  }
  const roots = Object.keys(doc).filter((k) => !k.startsWith('@_') && k !== '#text');
  if (roots.length !== 1) return [`xml: ${roots.length} root elements, not one`];
  const root = roots[0] as string;
  const given = flat(schema).xml.name;
  const named = given === undefined ? undefined : local(given);
  const problems = named && named !== root ? [`xml: root <${root}>, the schema names <${named}>`] : [];
  problems.push(...undeclaredPrefixes(body));
  const v = value(doc[root], schema, 0);
  if (!validate(v))
    problems.push(
      ...(validate.errors ?? []).slice(0, 3).map((e) => `xml: ${e.instancePath || '/'} ${e.message ?? ''}`),
    );
  return problems;
}
