/**
 * Pure: the request examples an operation documents (its JSON body's `example` and every `examples` entry), each
 * a case sent as is: the document says they are valid, so the server must accept them.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import type { LoadedSpec, OperationSpec } from '../../spec/load';
import { isJsonMediaType } from '../../spec/load';
import type { CaseSource, FuzzCase } from './cases';
import { expectationOf, validRequest } from './cases';
import { isObject } from './json-path';
import { arrayItems, objectShape } from '../../spec/schema-shape';

type Operation = OpenAPIV3_1.OperationObject;

/** The documented request examples of `op` (name, value). */
export function requestExamples(spec: LoadedSpec, op: OperationSpec): Array<[string, unknown]> {
  const item = spec.document.paths?.[op.path] as Record<string, Operation | undefined> | undefined;
  const body = item?.[op.method]?.requestBody as OpenAPIV3_1.RequestBodyObject | undefined;
  const out: Array<[string, unknown]> = [];
  for (const [type, media] of Object.entries(body?.content ?? {})) {
    if (!isJsonMediaType(type)) continue;
    if (media.example !== undefined) out.push(['example', media.example]);
    for (const [name, ex] of Object.entries(media.examples ?? {})) {
      const value = (ex as OpenAPIV3_1.ExampleObject).value;
      if (value !== undefined) out.push([name, value]);
    }
  }
  if (out.length === 0 && op.requestBody?.example !== undefined)
    out.push(['example', op.requestBody.example]);
  return out;
}

/** `value` without the properties `schema` marks readOnly: a request never carries them (schema-views.ts). */
export function withoutReadOnly(schema: unknown, value: unknown, depth = 0): unknown {
  const items = arrayItems(schema);
  if (Array.isArray(value)) return items ? value.map((v) => withoutReadOnly(items, v, depth + 1)) : value;
  const shape = objectShape(schema);
  if (!shape || !isObject(value) || depth > 8) return value;
  const out: Record<string, unknown> = {};
  for (const [name, v] of Object.entries(value)) {
    const prop = shape.properties[name];
    if ((prop as { readOnly?: unknown } | undefined)?.readOnly === true) continue;
    out[name] = prop ? withoutReadOnly(prop, v, depth + 1) : v;
  }
  return out;
}

/**
 * One case per documented example, sent as is but for its readOnly properties (the item id an update needs put
 * in); an example its own schema refuses is labelled so and must be refused.
 */
export function exampleCases(spec: LoadedSpec, op: OperationSpec, source: CaseSource): FuzzCase[] {
  return requestExamples(spec, op).map(([name, value], i) => {
    const body = source.adjust(withoutReadOnly(op.requestBody?.schema, value));
    const request = { ...validRequest(op, source, `${source.prefix}-e${i}`), body };
    const expect = expectationOf(op, request);
    const note = expect === 'reject' ? ' (invalid against its own request schema)' : '';
    return { phase: 'examples', label: `example "${name}"${note}`, expect, request };
  });
}
