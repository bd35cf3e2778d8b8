/**
 * The default example engine: the documented example of the operation's success status (or of the status asked
 * for with `Prefer: code=NNN`), straight from the spec already loaded and validated at start. Nothing to load,
 * no extra memory, no first-request delay; see the README for how it compares with the Prism engine.
 */
import { sampleOf } from '../sample';
import type { ExampleEngine } from './types';

export const specExampleEngine: ExampleEngine = async ({ operation, preferStatus }) => {
  const success = [...operation.responses.keys()].filter((s) => /^2\d\d$/.test(s)).sort()[0];
  const status = preferStatus ?? (success ? Number(success) : 200);
  const response = operation.responses.get(String(status));
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
