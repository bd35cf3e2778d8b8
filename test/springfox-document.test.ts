/**
 * Issue 39: a springfox Swagger 2.0 document (EMB's ncs has one: `originalRef` beside `$ref`, path parameters
 * `required: false`), which the 2.0 schema refuses and Prism reads, starts the mock and the runner alike: the
 * runner, with the plain run and `--fuzz`, passes against the mock of it and calls every operation.
 */
import path from 'node:path';
import { createFetchHandler } from '../mock/adapters/fetch';
import { runConformance } from '../conformance';
import { loadSpecOrThrow } from '../spec/load';

const FILE = path.join(__dirname, '..', 'fixtures', 'specs', 'wild', 'public', 'springfox-20.json');
const KEY = 'springfox-walk-key-0123456789';

beforeAll(() => {
  process.env.SPEC_VALIDATION_CACHE = 'off'; // read as written every time: a remembered mend would hide a broken one
});
afterAll(() => {
  delete process.env.SPEC_VALIDATION_CACHE;
});

it.each([false, true])(
  'the runner (fuzz: %s) passes against the mock of a springfox document',
  async (fuzz) => {
    const spec = await loadSpecOrThrow(FILE);
    const called = new Set<string>();
    const report = await runConformance({
      target: `http://mock.test${spec.basePath}`,
      key: KEY,
      specFile: FILE,
      seed: 3,
      maxWaitMs: 2000,
      fetch: await createFetchHandler({ document: spec, keys: [{ key: KEY, plan: 'pro' }] }),
      onExchange: (ex) => {
        if (ex.operationId && ex.response) called.add(ex.operationId);
      },
      ...(fuzz ? { fuzz: true, scenariosDir: 'none', fuzzTimeS: 3 } : {}),
    });
    const failing = report.rules
      .filter((r) => r.status === 'fail')
      .map((r) => `${r.id}: ${r.evidence[0]?.problem}`);
    expect(failing).toEqual([]);
    expect([...called].sort()).toEqual(spec.operations.map((o) => o.operationId).sort());
  },
  60_000,
);
