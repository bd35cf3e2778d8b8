/**
 * examples/typed-client.ts run as a user would (tsx, in a child process) against the mock on port 0: list,
 * create, a 400, a 401, and a 429 handled by waiting what Retry-After says.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { createMockServer, type MockServer } from '../../mock/node';
import { MINUTE_MS } from '../../mock/core/plans';
import { silentLogger } from '../../mock/core/log';

const ROOT = path.join(__dirname, '..', '..');

describe('examples/typed-client.ts against the mock', () => {
  let mock: MockServer;
  let base: string;
  // Time stands still 58 s into a minute until the first 429, then runs: Retry-After is then 2 s, and
  // waiting it really does open the next minute window.
  const frozenAt = Math.floor(Date.now() / MINUTE_MS) * MINUTE_MS + 58_000;
  let releasedAt: number | null = null;

  beforeAll(async () => {
    mock = await createMockServer({
      keys: [
        { key: 'client-key', plan: 'pro' },
        { key: 'client-quota-key', plan: 'enterprise', perMinute: 5, perDay: 1000 },
      ],
      clock: { now: () => (releasedAt === null ? frozenAt : frozenAt + (Date.now() - releasedAt)) },
      log: {
        ...silentLogger,
        request: (entry) => {
          if (entry.status === 429 && releasedAt === null) releasedAt = Date.now();
        },
      },
    });
    base = await mock.listen(0, '127.0.0.1');
  });
  afterAll(() => mock?.close());

  it('lists, creates, and handles 400, 401 and 429 (Retry-After) with the generated types', async () => {
    const { stdout } = await promisify(execFile)(
      path.join(ROOT, 'node_modules', '.bin', 'tsx'),
      [path.join(ROOT, 'examples', 'typed-client.ts')],
      {
        cwd: ROOT,
        timeout: 60_000,
        env: {
          ...process.env,
          PETSTORE_BASE_URL: base,
          PETSTORE_API_KEY: 'client-key',
          PETSTORE_QUOTA_KEY: 'client-quota-key',
        },
      },
    );
    const lines = stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^list: 200, 3 categories \(dog, cat, rabbit\)$/);
    expect(lines[1]).toMatch(/^create: 201, id 4 \(parrot\)$/);
    expect(lines[2]).toMatch(/^400: 400 invalid_request: .*name/);
    expect(lines[3]).toMatch(/^401: 401 unauthorized: /);
    expect(lines[4]).toBe('429: after 6 requests; Retry-After 2 s');
    expect(lines[5]).toBe('waiting 2000 ms as Retry-After says');
    expect(lines.at(-1)).toBe('after waiting: 200, 4 categories');
    expect((await mock.deps.records.list('categories')).map((c) => c.name)).toContain('parrot');
  }, 60_000);
});
