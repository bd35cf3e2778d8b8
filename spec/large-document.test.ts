/**
 * Issue 22: a document of thousands of operations starts at a cost that grows with its size, not faster, and
 * compiles nothing it does not use: a validator is compiled on its operation's first use only, and a component
 * schema shared by every operation (and one that refers to itself) compiles once.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { syntheticDocument } from '../bench/lib/synthetic-document';
import { createFetchHandler } from '../mock/adapters/fetch';
import { loadSpec, type LoadedSpec } from './load';

// Retained memory, not allocation noise: a collection before and after each load (jest runs without --expose-gc).
v8.setFlagsFromString('--expose-gc');
const collect = vm.runInNewContext('gc') as () => void;

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'large-doc-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/**
 * Load `copies` documents of `operations` each, all kept alive; the time and the retained heap per document.
 * Several copies of a small document average out what else the heap does meanwhile (a few MB either way).
 */
async function timedLoad(
  operations: number,
  copies = 1,
): Promise<{ ms: number; heapMb: number; spec: LoadedSpec }> {
  const files = Array.from({ length: copies }, (_, i) => path.join(tmp, `doc-${operations}-${i}.json`));
  for (const file of files) fs.writeFileSync(file, JSON.stringify(syntheticDocument(operations)));
  collect();
  const heapBefore = process.memoryUsage().heapUsed;
  const started = performance.now();
  const specs: LoadedSpec[] = [];
  for (const file of files) {
    const result = await loadSpec(file);
    if (!result.ok) throw new Error(result.error);
    specs.push(result.spec);
  }
  const ms = (performance.now() - started) / copies;
  collect();
  const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 1e6 / copies;
  return { ms, heapMb, spec: specs[0] as LoadedSpec };
}

describe('a large document', () => {
  let small: Awaited<ReturnType<typeof timedLoad>>;
  let large: Awaited<ReturnType<typeof timedLoad>>;
  beforeAll(async () => {
    process.env.SPEC_VALIDATION_CACHE = 'off'; // the validation every first start pays
    await timedLoad(50); // warm the loader's own modules
    small = await timedLoad(500, 4);
    large = await timedLoad(5000);
  }, 120_000);
  afterAll(() => {
    delete process.env.SPEC_VALIDATION_CACHE;
  });

  it('starts at a cost that grows at most linearly: ten times the operations, at most 15 times the time', () => {
    expect(large.spec.operations).toHaveLength(5000);
    expect(large.ms / small.ms).toBeLessThan(15);
  });

  it('uses memory that grows at most linearly with the document', () => {
    expect(large.heapMb).toBeLessThan(Math.max(small.heapMb, 1) * 15);
  });

  it('compiles no validator at start, and only what a request uses', async () => {
    expect(large.spec.compiledValidators).toBe(0);
    const key = 'large-document-key-0001';
    const handler = await createFetchHandler({ document: large.spec, keys: [{ key, plan: 'pro' }] });
    const afterStart = large.spec.compiledValidators;
    const res = await handler(
      new Request('http://mock.test/v1/r777', {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'one', owner: { deputy: { deputy: { name: 'deep' } } } }),
      }),
    );
    expect(res.status).toBe(201);
    // The create's body and its 201 answer; nothing of the other 4,999 operations.
    expect(large.spec.compiledValidators - afterStart).toBeLessThanOrEqual(3);
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
