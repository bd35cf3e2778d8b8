/**
 * The default example engine: the documented example of the operation's success status (or of the status asked
 * for with `Prefer: code=NNN`), straight from the spec already loaded and validated at start. Nothing to load,
 * no extra memory, no first-request delay; see docs/mock-your-api.md for how it compares with the Prism engine.
 */
import { documentedResponse, successStatusOf, type ResponseSpec } from '../../../spec/compile';
import { sampleOf, withoutExamples } from '../../../spec/sample';
import type { ExampleEngine } from './types';

export const specExampleEngine: ExampleEngine = async ({ operation, preferStatus }) => {
  const status = preferStatus ?? successStatusOf(operation) ?? 200;
  // A `2XX` range or a `default` alone documents the success too.
  const response = documentedResponse(operation, status);
  if (!response) return { error: `${operation.operationId} documents no ${String(status)} response` };
  // No example, or one its own schema refuses (GitHub's `/meta` has numbers where it says strings): a value
  // generated from the schema; no schema: no body.
  const body = exampleFits(response) ? response.example : generated(response);
  return { status, body, headers: {} };
};

const samples = new WeakMap<ResponseSpec, unknown>();

/**
 * A value generated from the response's schema, worked out once: the sampler's, else (when examples inside
 * the schema contradict it) the sampler's with those examples left out.
 */
function generated(response: ResponseSpec): unknown {
  if (!response.schema) return undefined;
  if (samples.has(response)) return samples.get(response);
  let value = sampleOf(response.schema);
  if (response.validateBody && !response.validateBody(value))
    value = sampleOf(withoutExamples(response.schema));
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
