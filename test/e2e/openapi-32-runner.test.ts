/**
 * Issue 33: the runner against a listening mock (node:http, 127.0.0.1, port 0) on the OpenAPI 3.2 wild document
 * (Xero's Assets API converted: QUERY searches, an `in: querystring` list filter, COPY under
 * `additionalOperations`) exits 0, its fuzz phase included: the querystring's parameter cases (left out,
 * refused by its schema, bad percent-encoding) are refused and the valid one accepted, as the mock judges them.
 */
import path from 'node:path';
import { createMockServer, type MockServer } from '../../mock/node';
import { runConformance } from '../../conformance';
import { exitCodeOf } from '../../conformance/cli';

const SPEC = path.join(__dirname, '..', '..', 'fixtures', 'specs', 'wild', 'assets-32.yaml');
const KEY = 'openapi-32-runner-key-0123456789';

describe('the runner on an OpenAPI 3.2 document, against the mock', () => {
  let mock: MockServer;
  let base: string;
  beforeAll(async () => {
    mock = await createMockServer({
      specPath: SPEC,
      seedFile: null,
      keys: [{ key: KEY, plan: 'enterprise', perMinute: 1e6, perDay: 1e8 }],
      quiet: true,
    });
    base = await mock.listen(0, '127.0.0.1');
  });
  afterAll(() => mock?.close());

  it('exits 0, with the 3.2 operations exercised and the querystring judged', async () => {
    const report = await runConformance({
      target: base,
      key: KEY,
      specFile: SPEC,
      seed: 7,
      scenariosDir: 'none',
      fuzz: true,
      maxExamples: 8,
      maxWaitMs: 2000,
    });
    const failing = report.rules
      .filter((r) => r.status === 'fail')
      .map((r) => [r.id, r.evidence[0]?.problem]);
    expect(failing).toEqual([]);
    expect(exitCodeOf(report, false)).toBe(0);
    const passed = new Set(report.rules.filter((r) => r.status === 'pass').map((r) => r.id));
    for (const id of [
      'body.searchAssets.valid', // QUERY /Assets with a JSON body
      'body.searchAssetTypes.valid',
      'crud.Assets.listed', // GET /Assets with a generated querystring
      'fuzz.getAssets.parameters', // the querystring's cases, valid and not
    ])
      expect([id, passed.has(id)]).toEqual([id, true]);
  });
});
