/**
 * Seeded random cases: a valid request drawn from the schemas (optional properties in or out), then half of them
 * broken at one random place (a boundary value, a random string, a wrong type, a property removed). The same seed
 * gives the same cases; the validator says which must be accepted.
 */
import type { OperationSpec } from '../../spec/load';
import { objectShape, type Schema } from '../../spec/schema-shape';
import { generateValid, mainType } from '../execute/generate-bodies';
import { boundaryProbes } from './boundaries';
import {
  asQueryText,
  expectationOf,
  isPinned,
  type CaseSource,
  type FuzzCase,
  type FuzzRequest,
} from './cases';
import { DELETE, getAt, pathLabel, setAt, type JsonPath } from './json-path';

const CHARS = ['a', 'Z', '0', ' ', '-', '_', '"', "'", '\\', '/', '<', '%', 'é', '漢', '🐕', '\n', '\u0000'];

function pick<T>(items: readonly T[], random: () => number): T | undefined {
  return items[Math.floor(random() * items.length)];
}

/** A random string up to a little past the schema's maxLength (30 without one). */
function randomString(schema: Schema, random: () => number): string {
  const max = typeof schema.maxLength === 'number' ? schema.maxLength + 2 : 30;
  const length = Math.floor(random() * (max + 1));
  return Array.from({ length }, () => pick(CHARS, random) ?? 'a').join('');
}

interface Place {
  path: JsonPath;
  schema: Schema;
  required: boolean;
}

/** Every property of `body` the schema names, with its schema (into nested objects). */
function placesOf(
  schema: Schema,
  body: unknown,
  path: JsonPath,
  depth: number,
  pinned: (p: JsonPath) => boolean,
): Place[] {
  const shape = objectShape(schema);
  if (!shape || depth > 3) return [];
  const out: Place[] = [];
  for (const [name, prop] of Object.entries(shape.properties)) {
    const at = [...path, name];
    if (getAt(body, at) === undefined || shape.uncertain?.has(name) || pinned(at)) continue;
    out.push({ path: at, schema: prop, required: shape.required.has(name) });
    out.push(...placesOf(prop, body, at, depth + 1, pinned));
  }
  return out;
}

/** One random break of `body` at one of its properties, with a label. */
function breakBody(schema: Schema, body: unknown, source: CaseSource): [string, unknown] | undefined {
  const random = source.random;
  const place = pick(
    placesOf(schema, body, [], 0, (p) => isPinned(source, p)),
    random,
  );
  if (!place) return undefined;
  const where = pathLabel(place.path);
  const roll = random();
  if (roll < 0.2) return [`${where} removed`, setAt(body, place.path, DELETE)];
  if (roll < 0.5 && mainType(place.schema) === 'string') {
    const text = randomString(place.schema, random);
    return [`${where} random string ${JSON.stringify(text).slice(0, 30)}`, setAt(body, place.path, text)];
  }
  const probe = pick(boundaryProbes(place.schema, getAt(body, place.path)), random);
  return probe ? [`${where} ${probe.name}`, setAt(body, place.path, probe.value)] : undefined;
}

function randomQuery(op: OperationSpec, random: () => number, prefix: string): Record<string, string> {
  const query: Record<string, string> = {};
  for (const p of op.queryParams) {
    if (!p.required && random() < 0.5) continue;
    const probe = random() < 0.3 ? pick(boundaryProbes(p.schema, undefined), random) : undefined;
    const text = asQueryText(probe ? probe.value : generateValid(p.schema, random, prefix));
    if (text !== undefined) query[p.name] = text;
  }
  return query;
}

/** `count` random cases of `op`, drawn from `source.random`. */
export function randomCases(op: OperationSpec, source: CaseSource, count: number): FuzzCase[] {
  const schema = op.requestBody?.kind === 'json' ? op.requestBody.schema : undefined;
  if (!schema && op.queryParams.length === 0) return [];
  const out: FuzzCase[] = [];
  for (let i = 0; i < count; i++) {
    const prefix = `${source.prefix}-r${i.toString(36)}`;
    const request: FuzzRequest = {};
    let label = 'random';
    if (schema) {
      request.body = source.adjust(generateValid(schema, source.random, prefix));
      const broken = source.random() < 0.5 ? breakBody(schema, request.body, source) : undefined;
      if (broken) [label, request.body] = [`random, ${broken[0]}`, broken[1]];
    }
    const query = randomQuery(op, source.random, prefix);
    if (Object.keys(query).length > 0) request.query = query;
    if (request.query) label += ` query ${new URLSearchParams(request.query).toString().slice(0, 60)}`;
    out.push({ phase: 'random', label: `#${i} ${label}`, expect: expectationOf(op, request), request });
  }
  return out;
}
