/** A concrete request for a documented operation: path parameters filled, a valid body when it takes one. */
import type { OperationSpec } from '../../spec/load';
import type { Auth, Outgoing } from '../send/client';
import { generateValid } from '../generate/values';
import { encodeBody } from '../generate/encode-body';

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
  // Written as the operation documents its body (JSON, a form, multipart), or skipped with the reason.
  const encoded = encodeBody(op, generateValid(op.requestBody.schema, random, prefix), prefix);
  if ('skip' in encoded) return { ...out, unbuildable: `${op.operationId}: ${encoded.skip}` };
  return { ...out, headers: { 'Content-Type': encoded.contentType }, body: encoded.body };
}
