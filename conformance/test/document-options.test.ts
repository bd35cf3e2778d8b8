/**
 * Options of a run on any document: security schemes other than bearer, --read-only, --scenarios none, scenarios
 * naming operations the document lacks, the clean-up report, and the HAR record with every secret masked.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { toHar } from '../../spec/report/har';
import { formatReport } from '../../spec/report';
import { runConformanceDetailed } from '../run';
import type { ConformanceOptions, FetchLike } from '../types';
import { createCrudHandler, CREDENTIALS } from '../../test/support/crud-server';
import { idsWith, runAgainst } from '../../test/support/helpers';
import { startReferenceServer } from '../../test/support/reference-server';

const FULL = path.join(__dirname, '..', '..', 'fixtures', 'specs', 'petstore-full.yaml');
const TARGET = 'http://crud.test/v1';
const BEARER_SCHEME = `    bearerAuth:
      type: http
      scheme: bearer`;

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'conformance-docs-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** petstore-full with its one scheme (still named bearerAuth) replaced. */
function withScheme(name: string, scheme: string): string {
  const text = fs.readFileSync(FULL, 'utf8');
  if (!text.includes(BEARER_SCHEME)) throw new Error('petstore-full.yaml no longer has the bearer scheme');
  const file = path.join(dir, `${name}.yaml`);
  fs.writeFileSync(file, text.replace(BEARER_SCHEME, `    bearerAuth:\n${scheme}`));
  return file;
}

const run = (specFile: string, fetch: FetchLike, extra: Partial<ConformanceOptions> = {}) =>
  runConformanceDetailed({
    target: TARGET,
    key: 'good-key',
    specFile,
    seed: 9,
    maxWaitMs: 500,
    fetch,
    ...extra,
  });

describe.each([
  [
    'apiKey in a query parameter',
    '      type: apiKey\n      in: query\n      name: api_key',
    CREDENTIALS.query('api_key'),
  ],
  [
    'apiKey in a header',
    '      type: apiKey\n      in: header\n      name: X-API-Key',
    CREDENTIALS.header('x-api-key'),
  ],
  [
    'apiKey in a cookie',
    '      type: apiKey\n      in: cookie\n      name: session',
    CREDENTIALS.cookie('session'),
  ],
  ['http basic', '      type: http\n      scheme: basic', CREDENTIALS.basicUser],
])('a document secured by %s', (name, scheme, credential) => {
  it('gets the key where the scheme says, the auth matrix passes, and the HAR masks the key', async () => {
    const spec = withScheme(name.replace(/\W+/g, '-'), scheme);
    const { report, exchanges } = await run(spec, await createCrudHandler(spec, { credential }));
    expect(idsWith(report, 'fail')).toEqual([]);
    for (const id of ['auth.missing-key', 'auth.wrong-scheme', 'auth.empty-bearer', 'auth.unknown-key'])
      expect(report.rules.find((r) => r.id === id)?.status).toBe('pass');
    const har = JSON.stringify(toHar(exchanges, 'test'));
    expect(har).not.toContain('good-key');
    expect(har).not.toContain(Buffer.from('good-key:').toString('base64'));
    expect(har).toContain('good…(masked)'.slice(0, 4));
  });
});

describe('--read-only', () => {
  it('sends nothing but GET and skips the write rules with that reason', async () => {
    const methods: string[] = [];
    const handler = await createCrudHandler(FULL);
    const counting: FetchLike = (req) => {
      methods.push(req.method);
      return handler(req);
    };
    const { report } = await run(FULL, counting, { readOnly: true });
    expect([...new Set(methods)]).toEqual(['GET']);
    expect(idsWith(report, 'fail')).toEqual([]);
    const lifecycle = report.rules.find((r) => r.id === 'crud.pets.create');
    expect(lifecycle?.status).toBe('skip');
    expect(lifecycle?.evidence[0]?.problem).toMatch(/--read-only: POST is not sent/);
    expect(report.rules.find((r) => r.id === 'crud.pets.unknown-id-404')?.status).toBe('pass');
  });
});

describe('scenarios', () => {
  it('--scenarios none runs no scenario', async () => {
    const methods: string[] = [];
    const handler = await createCrudHandler(FULL);
    const { report } = await run(FULL, (req) => (methods.push(req.url), handler(req)), {
      scenariosDir: 'none',
    });
    expect(report.rules.find((r) => r.id === 'categories.create-201')?.evidence[0]?.problem).toBe(
      'not exercised by this run',
    );
    expect(methods.some((u) => u.includes('/no-such-resource-'))).toBe(false);
  });

  it('a scenario naming an operation the document lacks is skipped with that reason', async () => {
    const server = await startReferenceServer();
    const scenarios = path.join(dir, 'scenarios');
    fs.mkdirSync(scenarios, { recursive: true });
    fs.writeFileSync(
      path.join(scenarios, 'pets.yaml'),
      'scenarios:\n  - id: delete-a-pet\n    rule: qa.pet-deleted\n    title: A pet can be deleted\n    source: §4\n    kind: contract\n    steps:\n      - { name: delete, request: { operation: deletePet, params: { petId: 1 } }, expect: { status: 204 } }\n',
    );
    try {
      const report = await runAgainst(server.url, { scenariosDir: scenarios, rules: ['qa.pet-deleted'] });
      expect(report.rules).toEqual([
        expect.objectContaining({
          id: 'qa.pet-deleted',
          status: 'skip',
          evidence: [
            expect.objectContaining({
              problem: 'scenario delete-a-pet: operation deletePet is not in the document',
            }),
          ],
        }),
      ]);
    } finally {
      await server.close();
    }
  });
});

describe('clean-up', () => {
  it('deletes what the run created where the document has a delete, and lists the rest', async () => {
    const full = await run(FULL, await createCrudHandler(FULL));
    expect(full.report.cleanup).toEqual({ deleted: expect.any(Number), leftovers: [] });
    const server = await startReferenceServer();
    try {
      // The pet store document has no delete for categories: everything created is left, and said so.
      const report = await runAgainst(server.url, { include: [] });
      const leftovers = report.cleanup?.leftovers ?? [];
      expect(leftovers.length).toBeGreaterThan(0);
      for (const l of leftovers)
        expect(l).toMatchObject({
          resource: 'categories',
          reason: 'the document has no delete for categories',
        });
      for (const reporter of ['human', 'junit', 'html', 'markdown'] as const)
        expect(formatReport(report, reporter)).toMatch(/Clean-up: 0 deleted, \d+ left on the target/);
      expect(JSON.parse(formatReport(report, 'json')).cleanup.leftovers).toHaveLength(leftovers.length);
    } finally {
      await server.close();
    }
  });
});

describe('the HAR record', () => {
  it('is HAR 1.2 with every field devtools needs, one entry per exchange', async () => {
    const { exchanges } = await run(FULL, await createCrudHandler(FULL), {
      rules: ['crud.pets.create', 'auth.missing-key'],
    });
    const har = toHar(exchanges, '1.0.0');
    expect(har.log.version).toBe('1.2');
    expect(har.log.creator).toEqual({ name: 'petstore-conformance', version: '1.0.0' });
    expect(har.log.entries).toHaveLength(exchanges.length);
    for (const entry of har.log.entries) {
      expect(new Date(entry.startedDateTime).toISOString()).toBe(entry.startedDateTime);
      expect(entry).toMatchObject({
        time: expect.any(Number),
        cache: {},
        timings: { send: 0, wait: expect.any(Number), receive: 0 },
      });
      expect(Object.keys(entry.request).sort()).toEqual(
        expect.arrayContaining([
          'method',
          'url',
          'httpVersion',
          'cookies',
          'headers',
          'queryString',
          'headersSize',
          'bodySize',
        ]),
      );
      expect(Object.keys(entry.response).sort()).toEqual(
        expect.arrayContaining([
          'status',
          'statusText',
          'httpVersion',
          'cookies',
          'headers',
          'content',
          'redirectURL',
          'headersSize',
          'bodySize',
        ]),
      );
      expect(entry.response.content).toMatchObject({
        size: expect.any(Number),
        mimeType: expect.any(String),
      });
    }
    const post = har.log.entries.find((e) => e.request.method === 'POST' && e.response.status === 201);
    expect(post?.request.postData).toMatchObject({
      mimeType: 'application/json',
      text: expect.stringContaining('"name"'),
    });
    expect(JSON.parse(post?.response.content.text ?? '')).toMatchObject({ id: expect.any(Number) });
  });
});
