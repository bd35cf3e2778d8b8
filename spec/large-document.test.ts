/**
 * Issue 22: a document of thousands of operations starts at a cost that grows with its size, not faster, and
 * compiles nothing it does not use: a validator is compiled on its operation's first use only, and a component
 * schema shared by every operation (and one that refers to itself) compiles once.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { syntheticDocument } from '../bench/lib/synthetic-document';
import { createFetchHandler } from '../mock/adapters/fetch';
import { loadSpec, type LoadedSpec } from './load';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'large-doc-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const ROOT = path.join(__dirname, '..');

/** Time and retained heap per copy of a document of `operations`, measured in a fresh process. */
function timedLoad(operations: number, copies = 1): { ms: number; heapMb: number; operations: number } {
  const file = path.join(tmp, `doc-${operations}.json`);
  fs.writeFileSync(file, JSON.stringify(syntheticDocument(operations)));
  const out = execFileSync(
    process.execPath,
    [
      '--expose-gc',
      '-r',
      path.join(ROOT, 'test', 'support', 'ts-register.js'),
      path.join(ROOT, 'test', 'support', 'measure-load.ts'),
      file,
      String(copies),
    ],
    { env: { ...process.env, SPEC_VALIDATION_CACHE: 'off' }, encoding: 'utf8' },
  );
  return JSON.parse(out) as { ms: number; heapMb: number; operations: number };
}

describe('a large document', () => {
  let small: ReturnType<typeof timedLoad>;
  let large: ReturnType<typeof timedLoad>;
  let spec: LoadedSpec;
  beforeAll(async () => {
    // The validation every first start pays, in fresh processes; the document of 5,000 also here, to use it.
    small = timedLoad(500, 4);
    large = timedLoad(5000);
    process.env.SPEC_VALIDATION_CACHE = 'off';
    const loaded = await loadSpec(path.join(tmp, 'doc-5000.json'));
    delete process.env.SPEC_VALIDATION_CACHE;
    if (!loaded.ok) throw new Error(loaded.error);
    spec = loaded.spec;
  }, 120_000);

  it('starts at a cost that grows at most linearly: ten times the operations, at most 15 times the time', () => {
    expect(large.operations).toBe(5000);
    expect(large.ms / small.ms).toBeLessThan(15);
  });

  it('uses memory that grows at most linearly with the document', () => {
    expect(small.heapMb).toBeGreaterThan(0);
    expect(large.heapMb).toBeLessThan(small.heapMb * 15);
  });

  it('compiles no validator at start, and only what a request uses', async () => {
    expect(spec.compiledValidators).toBe(0);
    const key = 'large-document-key-0001';
    const handler = await createFetchHandler({ document: spec, keys: [{ key, plan: 'pro' }] });
    const afterStart = spec.compiledValidators;
    const res = await handler(
      new Request('http://mock.test/v1/r777', {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'one', owner: { deputy: { deputy: { name: 'deep' } } } }),
      }),
    );
    expect(res.status).toBe(201);
    // The create's body and its 201 answer; nothing of the other 4,999 operations.
    expect(spec.compiledValidators - afterStart).toBeLessThanOrEqual(3);
    const bad = await handler(
      new Request('http://mock.test/v1/r777', {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'one', owner: { deputy: { deputy: { name: 7 } } } }),
      }),
    );
    expect(bad.status).toBe(400);
    expect(await bad.text()).toMatch(/\/owner\/deputy\/deputy\/name must be string/);
  });
});

it('compiles a many-way oneOf that refers to itself once, and validates finitely', async () => {
  const branches = Array.from({ length: 20 }, (_, i) => ({
    type: 'object',
    required: [`k${i}`],
    additionalProperties: false,
    properties: { [`k${i}`]: { $ref: '#/components/schemas/Matcher' } },
  }));
  const document = {
    openapi: '3.1.0',
    info: { title: 'Recursive', version: '1' },
    paths: {
      '/match': {
        post: {
          operationId: 'match',
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Matcher' } } },
          },
          responses: { '204': { description: 'ok' } },
        },
      },
    },
    components: { schemas: { Matcher: { oneOf: [{ type: 'string' }, ...branches] } } },
  };
  const file = path.join(tmp, 'recursive.json');
  fs.writeFileSync(file, JSON.stringify(document));
  const result = await loadSpec(file);
  if (!result.ok) throw new Error(result.error);
  const validate = result.spec.byId.get('match')?.requestBody?.validate;
  expect(validate?.({ k3: { k7: { k19: 'leaf' } } })).toBe(true);
  expect(validate?.({ k3: { k7: { k19: 5 } } })).toBe(false);
});
