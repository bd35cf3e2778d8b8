/** A concrete request for a documented operation: path parameters filled, a valid body when it takes one. */
import type { OperationSpec } from '../../spec/load';
import type { Auth, Outgoing } from '../send/client';
import { generateValid } from '../generate/values';
import { jsonMediaType } from '../generate/requests';

/** `/pets/{petId}` -> `/pets/1`: parameter values are not published, so 1 stands for "some id". */
export function samplePath(template: string): string {
  return template.replace(/\{[^}]+\}/g, '1');
}

/** A request to `op` with `auth`; a body generated from its schema when the operation takes one. */
export function operationRequest(
  op: OperationSpec,
  auth: Auth,
  random: () => number,
  prefix: string,
): Outgoing {
  const out: Outgoing = { method: op.method.toUpperCase(), path: samplePath(op.path), auth };
  if (!op.requestBody) return out;
  return {
    ...out,
    headers: { 'Content-Type': jsonMediaType(op) },
    body: JSON.stringify(generateValid(op.requestBody.schema, random, prefix)),
  };
}
