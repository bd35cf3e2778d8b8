/**
 * The default example engine: the documented example of the operation's success status (or of the status asked
 * for with `Prefer: code=NNN`), straight from the spec already loaded and validated at start. Nothing to load,
 * no extra memory, no first-request delay; see the README for how it compares with the Prism engine.
 */
import { documentedResponse, successStatusOf } from '../../../spec/compile';
import { sampleOf } from '../sample';
import type { ExampleEngine } from './types';

export const specExampleEngine: ExampleEngine = async ({ operation, preferStatus }) => {
  const status = preferStatus ?? successStatusOf(operation) ?? 200;
  // A `2XX` range or a `default` alone documents the success too.
  const response = documentedResponse(operation, status);
  if (!response) return { error: `${operation.operationId} documents no ${String(status)} response` };
  // No example: a value generated from the schema (valid against it); no schema: no body.
  const body =
    response.example !== undefined
      ? response.example
      : response.schema
        ? sampleOf(response.schema)
        : undefined;
  return { status, body, headers: {} };
};
