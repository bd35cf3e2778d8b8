/**
 * Pure: the request examples an operation documents (its JSON body's `example` and every `examples` entry), each
 * a case sent as is: the document says they are valid, so the server must accept them.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import type { LoadedSpec, OperationSpec } from '../../spec/load';
import { isJsonMediaType } from '../../spec/load';
import type { CaseSource, FuzzCase } from './cases';
import { validRequest } from './cases';

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

/** One case per documented example (sent as is, the item id an update needs put in). */
export function exampleCases(spec: LoadedSpec, op: OperationSpec, source: CaseSource): FuzzCase[] {
  return requestExamples(spec, op).map(([name, value], i) => ({
    phase: 'examples',
    label: `example "${name}"`,
    expect: 'accept',
    request: { ...validRequest(op, source, `${source.prefix}-e${i}`), body: source.adjust(value) },
  }));
}
