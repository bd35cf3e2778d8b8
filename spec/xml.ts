/**
 * Pure: answers in XML read and written by the OpenAPI `xml` object (issue 40): `name`, `wrapped`, `attribute`,
 * `namespace`, `prefix`, under the root the schema names. `toXml` writes a value so that `fromXml`, or any
 * reader mapping XML to the schema, gets the value back; the mock writes with one, and the runner and the proxy
 * judge with the other (spec/http/response-checks.ts), so they never disagree.
 */
import { isObject } from './json';
import { typesOf, type Schema } from './schema-shape';
import { parseXml, type XmlElement } from './xml-parse';
import { localXmlName, qualify, xmlName } from './xml-names';

type Scope = ReadonlySet<string>;

interface XmlObject {
  name?: string;
  namespace?: string;
  prefix?: string;
  attribute?: boolean;
  wrapped?: boolean;
}

/** A schema seen through its `allOf` parts (AWS documents write `allOf: [{$ref}, {xml: {name}}]`). */
interface View {
  types: string[];
  properties: Record<string, Schema>;
  items?: Schema;
  additional?: Schema | boolean;
  required: Set<string>;
  xml: XmlObject;
}

const MAX_DEPTH = 64;

/** Is `type` (parameters allowed) an XML media type? */
export const isXmlMediaType = (type: string): boolean => {
  const t = (type.split(';')[0] ?? '').trim().toLowerCase();
  return t === 'application/xml' || t === 'text/xml' || t.endsWith('+xml');
};

function view(schema: unknown, depth = 0): View {
  const v: View = { types: [], properties: {}, required: new Set(), xml: {} };
  if (!isObject(schema) || depth > 8) return v;
  const s = schema as Schema & Record<string, unknown>;
  for (const part of Array.isArray(s.allOf) ? s.allOf : []) {
    const p = view(part, depth + 1);
    v.types.push(...p.types);
    Object.assign(v.properties, p.properties);
    Object.assign(v.xml, p.xml);
    p.required.forEach((r) => v.required.add(r));
    v.items ??= p.items;
    v.additional ??= p.additional;
  }
  v.types.push(...typesOf(s));
  if (isObject(s.properties)) Object.assign(v.properties, s.properties);
  if (isObject(s.items)) v.items = s.items as Schema;
  if (s.additionalProperties !== undefined) v.additional = s.additionalProperties as Schema | boolean;
  if (isObject(s.xml)) Object.assign(v.xml, s.xml);
  for (const r of Array.isArray(s.required) ? s.required : []) if (typeof r === 'string') v.required.add(r);
  return v;
}

const isArrayView = (v: View): boolean => v.types.includes('array') || (!!v.items && v.types.length === 0);
const isObjectView = (v: View): boolean =>
  v.types.includes('object') || Object.keys(v.properties).length > 0 || isObject(v.additional);

/** The root element's name: the schema's `xml.name`, else `fallback` (a component's or an operation's name). */
export function xmlRootName(schema: unknown, fallback: string): string {
  return view(schema).xml.name ?? xmlName(fallback);
}

const escapeText = (s: string): string =>
  s.replace(/[<>&]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;' })[c] ?? c);
const escapeAttr = (s: string): string => escapeText(s).replace(/"/g, '&quot;');
const scalarText = (value: unknown): string =>
  typeof value === 'object' ? JSON.stringify(value) : String(value as string | number | boolean);

/** One element `name` holding `value` as `schema` describes it, under the prefixes `scope` declares. */
function element(name: string, value: unknown, schema: unknown, depth: number, scope: Scope): string {
  const v = view(schema);
  const own = qualify(name, v.xml, scope);
  const q = own.q;
  if (depth > MAX_DEPTH) return `<${q}${own.decl}/>`;
  if (Array.isArray(value)) {
    const itemName = view(v.items).xml.name ?? 'item';
    const inner = value.map((x) => element(itemName, x, v.items, depth + 1, own.scope)).join('');
    return `<${q}${own.decl}>${inner}</${q}>`;
  }
  if (!isObject(value)) return `<${q}${own.decl}>${escapeText(scalarText(value))}</${q}>`;
  const decls = new Set(own.decl ? [own.decl] : []);
  let inner = own.scope;
  let attrs = '';
  let body = '';
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined || item === null) continue;
    const ps = v.properties[key] ?? (isObject(v.additional) ? v.additional : undefined);
    const pv = view(ps);
    const pname = pv.xml.name ?? key;
    if (pv.xml.attribute) {
      // An attribute holds text: an object or a list there (a document's `type: object` marked attribute)
      // cannot be written, and an element in its place would be read as another property: it is left out.
      if (isObject(item) || Array.isArray(item)) continue;
      const a = qualify(pname, pv.xml, inner, true);
      if (a.decl) decls.add(a.decl);
      inner = a.scope;
      attrs += ` ${a.q}="${escapeAttr(scalarText(item))}"`;
    } else if (Array.isArray(item)) body += arrayProperty(key, item, pv, depth, inner);
    else body += element(pname, item, ps, depth + 1, inner);
  }
  return `<${q}${[...decls].join('')}${attrs}>${body}</${q}>`;
}

/** An array property: its items as repeated elements, inside one wrapper element when `xml.wrapped`. */
function arrayProperty(key: string, items: unknown[], pv: View, depth: number, scope: Scope): string {
  const name = pv.xml.name ?? key;
  const itemName = view(pv.items).xml.name ?? name;
  if (!pv.xml.wrapped) return items.map((x) => element(itemName, x, pv.items, depth + 1, scope)).join('');
  const w = qualify(name, pv.xml, scope);
  const inner = items.map((x) => element(itemName, x, pv.items, depth + 1, w.scope)).join('');
  return `<${w.q}${w.decl}>${inner}</${w.q}>`;
}

/**
 * `value` made writable as XML that reads back as it is (by spec/xml.ts or any reader of the `xml` object):
 * - an unwrapped list of none writes no element, which a reader takes for the property missing: a required one
 *   is given one item (`item` makes it from the items' schema) unless the schema caps it at none;
 * - unwrapped lists whose items share an element name (EC2's lists all name theirs `item`) would each be read
 *   back as all of those elements: they are left empty where the schema allows it.
 */
export function withRequiredLists(
  value: unknown,
  schema: unknown,
  item: (items: Schema | undefined) => unknown,
  depth = 0,
): unknown {
  const v = view(schema);
  if (depth > FILL_DEPTH) return value;
  if (Array.isArray(value)) return value.map((x) => withRequiredLists(x, v.items, item, depth + 1));
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = { ...value };
  const lists = Object.entries(v.properties).flatMap(([key, ps]) => {
    const pv = view(ps);
    return isArrayView(pv) && !pv.xml.wrapped ? [[key, view(pv.items).xml.name ?? key] as const] : [];
  });
  const shared = (name: string) => lists.filter(([, n]) => n === name).length > 1;
  for (const [key, name] of lists)
    listFitted(out, key, v.properties[key], v.required.has(key), shared(name), item);
  for (const [key, ps] of Object.entries(v.properties))
    if (out[key] !== undefined) out[key] = withRequiredLists(out[key], ps, item, depth + 1);
  return out;
}

/** One unwrapped list of `out`: emptied when its element name is taken, given an item when required and empty. */
function listFitted(
  out: Record<string, unknown>,
  key: string,
  ps: Schema | undefined,
  required: boolean,
  nameTaken: boolean,
  item: (items: Schema | undefined) => unknown,
): void {
  const least = isObject(ps) && typeof ps.minItems === 'number' ? ps.minItems : 0;
  if (nameTaken && !required && least === 0) delete out[key];
  const empty = out[key] === undefined || (Array.isArray(out[key]) && out[key].length === 0);
  const capped = isObject(ps) && ps.maxItems === 0;
  if (required && empty && !capped && !nameTaken) {
    const one = item(view(ps).items);
    if (one !== undefined) out[key] = [one];
  }
}

const FILL_DEPTH = 16;

/** `value` as an XML document under the root `rootName` (see `xmlRootName`), written as `schema` says. */
export function toXml(value: unknown, schema: unknown, rootName: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${element(rootName, value, schema, 0, new Set())}\n`;
}

/** Text typed as the schema says: numbers and booleans where it reads as one, else the string. */
function scalar(text: string, v: View): unknown {
  const t = text.trim();
  if ((v.types.includes('integer') || v.types.includes('number')) && t !== '' && Number.isFinite(Number(t)))
    return Number(t);
  if (v.types.includes('boolean') && (t === 'true' || t === 'false')) return t === 'true';
  if (v.types.includes('null') && t === '' && !v.types.includes('string')) return null;
  return text;
}

function mapObject(el: XmlElement, v: View, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const used = new Set<XmlElement>();
  for (const [key, ps] of Object.entries(v.properties)) {
    const pv = view(ps);
    const name = localXmlName(pv.xml.name ?? key);
    if (pv.xml.attribute) {
      if (el.attrs[name] !== undefined) out[key] = scalar(el.attrs[name], pv);
      continue;
    }
    if (isArrayView(pv)) {
      const wrapper = pv.xml.wrapped ? el.children.find((c) => c.name === name) : undefined;
      const itemName = localXmlName(view(pv.items).xml.name ?? name);
      const found = wrapper ? wrapper.children : el.children.filter((c) => c.name === itemName);
      if (wrapper) used.add(wrapper);
      found.forEach((c) => used.add(c));
      // An empty unwrapped list writes no element: a required one read back is the empty list it was.
      const listed = wrapper || found.length > 0 || v.required.has(key);
      if (listed) out[key] = found.map((c) => mapElement(c, pv.items, depth + 1));
      continue;
    }
    const child = el.children.find((c) => c.name === name);
    if (child) {
      used.add(child);
      out[key] = mapElement(child, ps, depth + 1);
    }
  }
  if (v.additional !== false)
    for (const c of el.children)
      if (!used.has(c) && !(c.name in out))
        out[c.name] = mapElement(c, isObject(v.additional) ? v.additional : undefined, depth + 1);
  return out;
}

function mapElement(el: XmlElement, schema: unknown, depth: number): unknown {
  const v = view(schema);
  if (depth > MAX_DEPTH) return undefined;
  if (isArrayView(v)) return el.children.map((c) => mapElement(c, v.items, depth + 1));
  if (isObjectView(v) || (v.types.length === 0 && el.children.length > 0)) return mapObject(el, v, depth);
  return scalar(el.text, v);
}

/** The value an XML document holds, read as `schema` describes it; throws when the text is not XML. */
export function fromXml(text: string, schema: unknown): unknown {
  return mapElement(parseXml(text), schema, 0);
}
