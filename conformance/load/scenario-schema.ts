/** The shape of a scenario file, as a JSON schema (validated with ajv at load) and as a type. */

export interface StepRequest {
  /** The operationId of a documented operation: its method and path come from the document. */
  operation?: string;
  /** Path parameters of `operation` (templated), e.g. `{ petId: '{{id}}' }`. */
  params?: Record<string, unknown>;
  /** With `path`, instead of `operation`: a request the document may not describe (an unknown path). */
  method?: string;
  /** Path relative to the target, e.g. `/books`; may use `{{name}}` templates. */
  path?: string;
  /** `key` (default) sends the API key as a bearer token; `none` sends no Authorization header. */
  auth?: 'key' | 'none';
  headers?: Record<string, string>;
  /** A JSON value sent as the body (templated), with `Content-Type: application/json`. */
  body?: unknown;
  /** A raw body string sent as is (e.g. malformed JSON). */
  rawBody?: string;
}

export interface StepExpect {
  status?: number | number[];
  /** A component schema of the spec the body must match, e.g. `Book`. */
  schema?: string;
  /** The body is an Error whose `status` equals the HTTP status. */
  error?: boolean;
  /** JSON pointer -> expected value (templated). */
  equals?: Record<string, unknown>;
  /** JSON pointer -> JSON type (`integer`, `string`, `number`, `boolean`, `array`, `object`, `null`). */
  types?: Record<string, string>;
  /** The array at `at` (default the body) holds an item with these fields (templated). */
  contains?: { at?: string; item: Record<string, unknown> };
}

export interface ScenarioStep {
  name: string;
  request: StepRequest;
  expect?: StepExpect;
  /** Variable name -> JSON pointer into the response body. */
  capture?: Record<string, string>;
}

export interface Scenario {
  id: string;
  rule: string;
  /** Only needed when `rule` is not in the catalogue: the new rule's description. */
  title?: string;
  source?: string;
  kind?: 'contract' | 'assumption';
  tags?: string[];
  steps: ScenarioStep[];
}

export interface ScenarioFile {
  scenarios: Scenario[];
}

const pointerMap = { type: 'object', additionalProperties: { type: 'string', pattern: '^(/.*)?$' } };

export const SCENARIO_FILE_SCHEMA = {
  type: 'object',
  required: ['scenarios'],
  additionalProperties: false,
  properties: {
    scenarios: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['id', 'rule', 'steps'],
        additionalProperties: false,
        properties: {
          id: { type: 'string', pattern: '^[a-z0-9][a-z0-9.-]*$' },
          rule: { type: 'string', pattern: '^[a-z0-9][a-z0-9.-]*$' },
          title: { type: 'string' },
          source: { type: 'string', pattern: '^§[0-9]+' },
          kind: { enum: ['contract', 'assumption'] },
          tags: { type: 'array', items: { type: 'string' } },
          steps: { type: 'array', minItems: 1, items: { $ref: '#/$defs/step' } },
        },
      },
    },
  },
  $defs: {
    step: {
      type: 'object',
      required: ['name', 'request'],
      additionalProperties: false,
      properties: {
        name: { type: 'string' },
        request: {
          type: 'object',
          // An operation by operationId, or a method and a path.
          anyOf: [
            { required: ['method', 'path'], properties: { method: true, path: true } },
            { required: ['operation'], properties: { operation: true } },
          ],
          additionalProperties: false,
          properties: {
            operation: { type: 'string', minLength: 1 },
            params: { type: 'object' },
            // Other methods (3.2's additionalOperations: COPY, LINK …) by the step's `operation`.
            method: { enum: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'QUERY'] },
            path: { type: 'string', pattern: '^/' },
            auth: { enum: ['key', 'none'] },
            headers: { type: 'object', additionalProperties: { type: 'string' } },
            body: true,
            rawBody: { type: 'string' },
          },
          // body and rawBody exclude each other
          not: { required: ['body', 'rawBody'], properties: { body: true, rawBody: true } },
        },
        expect: {
          type: 'object',
          additionalProperties: false,
          properties: {
            status: {
              anyOf: [
                { type: 'integer', minimum: 100, maximum: 599 },
                { type: 'array', minItems: 1, items: { type: 'integer', minimum: 100, maximum: 599 } },
              ],
            },
            schema: { type: 'string' },
            error: { type: 'boolean' },
            equals: { type: 'object' },
            types: {
              type: 'object',
              additionalProperties: {
                enum: ['integer', 'string', 'number', 'boolean', 'array', 'object', 'null'],
              },
            },
            contains: {
              type: 'object',
              required: ['item'],
              additionalProperties: false,
              properties: { at: { type: 'string' }, item: { type: 'object' } },
            },
          },
        },
        capture: pointerMap,
      },
    },
  },
} as const;
