/**
 * The default example engine: the documented example of the operation's success status (or of the status asked
 * for with `Prefer: code=NNN`), straight from the spec already loaded and validated at start. Nothing to load,
 * no extra memory, no first-request delay; see docs/mock-your-api.md for how it compares with the Prism engine.
 */
import { documentedResponse, type ResponseSpec } from '../../../spec/compile';
import { successStatusOf } from '../../../spec/success';
import { validAnswer } from '../../../spec/conform';
import { sampleOf } from '../../../spec/sample';
import type { ExampleEngine } from './types';

export const specExampleEngine: ExampleEngine = async ({ operation, preferStatus }) => {
  const status = preferStatus ?? successStatusOf(operation) ?? firstDocumented(operation.responses);
  // A `2XX` range or a `default` alone documents the success too.
  const response = documentedResponse(operation, status);
  if (!response) return { error: `${operation.operationId} documents no ${String(status)} response` };
  // No example, or one its own schema refuses (GitHub's `/meta` has numbers where it says strings): a value
  // generated from the schema; no schema: no body.
  const body = exampleFits(response) ? response.example : generated(response);
  return { status, body, headers: {} };
};

/** An operation that documents no success (only a `3xx`, only errors): its first documented status. */
function firstDocumented(responses: ReadonlyMap<string, ResponseSpec>): number {
  // A `101` (a protocol switch) cannot be answered over HTTP/1.1 without the switch: the next documented status.
  const first = [...responses.keys()].filter((s) => /^[2-5]\d\d$/.test(s)).sort()[0];
  return first ? Number(first) : 200;
}

const samples = new WeakMap<ResponseSpec, unknown>();

/** A value generated from the response's schema, valid against its validator, worked out once. */
function generated(response: ResponseSpec): unknown {
  if (!response.schema) return undefined;
  if (samples.has(response)) return samples.get(response);
  const value = validAnswer(sampleOf(response.schema), response.schema, response.validateBody);
  samples.set(response, value);
  return value;
}

const fits = new WeakMap<ResponseSpec, boolean>();

/** Is the response's example there and valid against its schema? Judged once per response, on first use. */
function exampleFits(response: ResponseSpec): boolean {
  if (response.example === undefined) return false;
  let ok = fits.get(response);
  if (ok === undefined) {
    ok = response.validateBody ? response.validateBody(response.example) : true;
    fits.set(response, ok);
  }
  return ok;
}
