/** Schemas as a graph: long chains of components and cycles through vendor keywords compile (issue 30). */
import type { OpenAPIV3_1 } from 'openapi-types';
import { dereference } from './deref';
import { createSchemaCompiler } from './schema-compiler';
import { forEachSchema } from './schema-walk';

type Json = Record<string, unknown>;

/** A document whose component `c0` refers to `c1` … `c{n-1}`, each through a property, the last back to `c0`. */
function chain(n: number, vendor: boolean): Json {
  const schemas: Record<string, Json> = {};
  for (let i = 0; i < n; i++) {
    const next = { $ref: `#/components/schemas/c${(i + 1) % n}` };
    schemas[`c${i}`] = {
      type: 'object',
      required: ['id'],
      properties: { id: { type: 'string' }, next: { anyOf: [{ type: 'string' }, next] } },
      ...(vendor ? { 'x-expansionResources': { oneOf: [next] } } : {}),
    };
  }
  return dereference({ openapi: '3.1.0', info: { title: 't', version: '1' }, components: { schemas } });
}

it('resolves, walks and meta-checks a cycle of 3,000 components without running out of stack', () => {
  const document = chain(3000, false);
  const schemas = (document.components as { schemas: Record<string, Json> }).schemas;
  const next = (s: Json | undefined) => ((s?.properties as Record<string, Json>).next?.anyOf as Json[])[1];
  expect(next(schemas.c2999)).toBe(schemas.c0); // one object per component: the graph closes
  let walked = 0;
  forEachSchema(document, () => walked++);
  expect(walked).toBe(3000 * 4); // each component, its two properties, the anyOf's string (the other: next)
  const compiler = createSchemaCompiler(document);
  for (const name of ['c0', 'c1500']) expect(compiler.metaProblem(schemas[name], 'raw')).toBeUndefined();
});

it('compiles a validator through a chain of 100 components (ajv compiles each target of a $ref at once)', () => {
  const document = chain(100, false);
  const compiler = createSchemaCompiler(document);
  const first = (document.components as { schemas: Json }).schemas.c0;
  const validate = compiler.compile(first, 'response', 'c0');
  expect(validate({ id: 'a', next: { id: 'b', next: 'c' } })).toBe(true);
  expect(validate({ id: 'a', next: { id: 7 } })).toBe(false);
});

it('compiles schemas whose vendor keywords hold the document’s schemas in a cycle (ajv walks every key)', () => {
  const document = chain(3, true) as unknown as OpenAPIV3_1.Document;
  const compiler = createSchemaCompiler(document);
  const first = (document.components?.schemas as Json).c0;
  expect(compiler.metaProblem(first, 'raw')).toBeUndefined();
  expect(compiler.compile(first, 'request', 'c0')({ id: 'a', next: { id: 'b' } })).toBe(true);
});

it('compiles a schema written inline again once, and tells apart schemas that differ', () => {
  const document = { openapi: '3.1.0', info: { title: 't', version: '1' }, paths: {} };
  const compiler = createSchemaCompiler(document);
  const ids = Array.from({ length: 50 }, () => compiler.compile({ type: 'integer' }, 'raw', 'id'));
  expect(new Set(ids).size).toBe(1);
  const text = compiler.compile({ type: 'string', maxLength: 2 }, 'raw', 'name');
  expect(text).not.toBe(ids[0]);
  expect([ids[0]?.(7), ids[0]?.('7'), text('ab'), text('abc'), text(7)]).toEqual([
    true,
    false,
    true,
    false,
    false,
  ]);
  expect(compiler.compile({ type: 'string', maxLength: 3 }, 'raw', 'name')('abc')).toBe(true);
});
