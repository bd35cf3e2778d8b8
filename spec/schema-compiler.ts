/**
 * Pure: one document's schemas -> ajv validators, compiled on first use and shared. Each document gets its own
 * ajv instance (released with the document on a --watch reload). A component schema (or its request or response
 * view) is added to ajv once under its own id and every schema that uses it refers to it, so a component used by
 * a thousand operations compiles once, and a recursive one compiles to a finite validator.
 */
import type Ajv2020 from 'ajv/dist/2020';
import type { ValidateFunction } from 'ajv';
import { admitDocumentVocabulary, createAjv } from './ajv';
import { requestView, responseView } from './schema-views';
import { isObject } from './json';
import { ONE_SCHEMA as ONE, SCHEMA_LIST as LISTS, SCHEMA_MAP as MAPS } from './schema-keywords';

/** Which view of a schema: as written (parameters, headers), or a body's request or response view. */
export type SchemaDirection = 'raw' | 'request' | 'response';
type Json = Record<string, unknown>;

export interface SchemaCompiler {
  /** A validator of `schema` in `direction`, compiled when first called; `where` names it in an error. */
  lazy(schema: unknown, direction: SchemaDirection, where: string): ValidateFunction;
  /** Compile now (a broken schema throws, naming `where`). */
  compile(schema: unknown, direction: SchemaDirection, where: string): ValidateFunction;
  /** Check a schema against the JSON Schema meta-schema; the problem, or undefined. */
  metaProblem(schema: unknown, direction: SchemaDirection): string | undefined;
  /** How many validators have been compiled so far (tests check laziness with it). */
  readonly compiled: number;
}

let documents = 0;

/** A compiler for `document`'s schemas (`components.schemas` are the shared ones). */
export function createSchemaCompiler(document: unknown): SchemaCompiler {
  const ajv: Ajv2020 = createAjv({ validateSchema: false, inlineRefs: false });
  admitDocumentVocabulary(ajv, document);
  const doc = `urn:spec:${++documents}`;
  const components = Object.entries(
    ((document as { components?: { schemas?: Json } }).components?.schemas ?? {}) as Json,
  ).filter(([, s]) => isObject(s)) as Array<[string, Json]>;
  const names = new Map<SchemaDirection, Map<object, string>>();
  const namesFor = (dir: SchemaDirection): Map<object, string> => {
    let map = names.get(dir);
    if (!map) {
      map = new Map();
      for (const [name, schema] of components) map.set(view(schema, dir), name);
      names.set(dir, map);
    }
    return map;
  };
  const added = new Set<string>();
  const byText = new Map<string, ValidateFunction>();
  const converted = new Map<SchemaDirection, WeakMap<object, unknown>>();
  let compiled = 0;

  const idOf = (dir: SchemaDirection, name: string): string => `${doc}:${dir}:${encodeURIComponent(name)}`;

  /**
   * Components a conversion referred to and ajv does not have yet. Added one after another by `drain`, never
   * from inside the conversion that met them: Stripe's description chains a thousand components, and adding
   * each where it is met recursed a thousand conversions deep (`Maximum call stack size exceeded`).
   */
  const pending: Array<[SchemaDirection, string, Json]> = [];
  const refTo = (dir: SchemaDirection, name: string, schema: Json): Json => {
    const id = idOf(dir, name);
    if (!added.has(id)) pending.push([dir, name, schema]);
    return { $ref: id };
  };
  const drain = (): void => {
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      const [dir, name, schema] = next;
      const id = idOf(dir, name);
      if (added.has(id)) continue;
      added.add(id);
      ajv.addSchema(convert(schema, dir, true) as object, id);
    }
  };

  /** Add the component `name` (its `dir` view `schema`) to ajv once, with every component it refers to. */
  const ensure = (dir: SchemaDirection, name: string, schema: Json): string => {
    const id = idOf(dir, name);
    if (!added.has(id)) pending.push([dir, name, schema]);
    drain();
    return id;
  };

  const inProgress = new Set<object>();
  let loops = 0;

  /**
   * `schema` for ajv: every component inside it (not the root) replaced by a `$ref` to its id. A loop through a
   * schema that is no component (a document bundled from files puts a recursive schema where it is first used)
   * gets a name of its own, so ajv sees a `$ref`, never a cycle.
   */
  const convert = (schema: unknown, dir: SchemaDirection, root: boolean): unknown => {
    if (!isObject(schema)) return schema;
    const names = namesFor(dir);
    const name = root ? undefined : names.get(schema);
    if (name !== undefined) return refTo(dir, name, schema);
    if (inProgress.has(schema)) {
      const synthetic = `+loop-${++loops}`; // "+" is no component name character: no clash
      names.set(schema, synthetic);
      return { $ref: idOf(dir, synthetic) }; // added when the conversion of `schema` ends, below
    }
    let memo = converted.get(dir);
    if (!memo) converted.set(dir, (memo = new WeakMap()));
    if (!root && memo.has(schema)) return memo.get(schema);
    const out: Json = {};
    if (!root) memo.set(schema, out);
    inProgress.add(schema);
    for (const [key, value] of Object.entries(schema)) {
      // A vendor keyword validates nothing, and may hold the document's schemas as data (Stripe's
      // `x-expansionResources: {oneOf: [file]}`), a cycle ajv would walk forever (it traverses every key).
      if (key.startsWith('x-')) continue;
      if (Array.isArray(value) && LISTS.has(key)) out[key] = value.map((v) => convert(v, dir, false));
      else if (ONE.has(key) && isObject(value)) out[key] = convert(value, dir, false);
      else if (MAPS.has(key) && isObject(value))
        out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, convert(v, dir, false)]));
      else out[key] = value;
    }
    inProgress.delete(schema);
    const named = names.get(schema);
    if (named !== undefined && !added.has(idOf(dir, named))) {
      added.add(idOf(dir, named));
      ajv.addSchema(out, idOf(dir, named));
    }
    return out;
  };

  const compile = (schema: unknown, dir: SchemaDirection, where: string): ValidateFunction => {
    try {
      compiled++;
      const name = isObject(schema) ? namesFor(dir).get(schema) : undefined;
      if (name !== undefined) {
        const id = ensure(dir, name, schema as Json);
        const fn = ajv.getSchema(id);
        if (!fn) throw new Error(`schema ${id} is not known`);
        return fn;
      }
      const converted = convert(schema, dir, true) as object;
      drain();
      // The same schema written inline again (`{type: integer}` for the id of every item path) is compiled once:
      // components are `$ref`s by now, so the text is finite and names what the validator checks.
      const text = JSON.stringify(converted);
      let fn = byText.get(text);
      if (!fn) byText.set(text, (fn = ajv.compile(converted)));
      return fn;
    } catch (err) {
      throw new Error(`${where}: ${(err as Error).message}`);
    }
  };

  return {
    compile,
    lazy(schema, dir, where) {
      let fn: ValidateFunction | undefined;
      const validate = ((data: unknown) => {
        fn ??= compile(schema, dir, where);
        const ok = fn(data);
        validate.errors = fn.errors;
        return ok;
      }) as ValidateFunction;
      validate.errors = null;
      return validate;
    },
    metaProblem(schema, dir) {
      const converted = convert(schema, dir, true) as object;
      drain();
      const ok = ajv.validateSchema(converted);
      return ok ? undefined : ajv.errorsText(ajv.errors, { dataVar: 'schema' });
    },
    get compiled() {
      return compiled;
    },
  };
}

function view(schema: Json, dir: SchemaDirection): object {
  if (dir === 'request') return requestView(schema);
  if (dir === 'response') return responseView(schema);
  return schema;
}
