/**
 * Issue 26.4 on the runner's side: a PATCH documented with application/json-patch+json gets a JSON Patch (a
 * `test` of the current value, then a `replace`), read back. The mock passes; a server that takes the body as a
 * merge patch, or answers the item unchanged, fails crud.<resource>.json-patch.
 */
import path from 'node:path';
import { createFetchHandler } from '../../mock/adapters/fetch';
import { runConformance } from '../index';
import { loadSpecOrThrow } from '../../spec/load';
import type { FetchLike } from '../types';

const FILE = path.join(__dirname, '..', '..', 'fixtures', 'specs', 'wild', 'scheduler-json-patch-31.yaml');
const KEY = 'json-patch-runner-key-0001';
const ORIGIN = 'http://mock.test';

type Front = (request: Request, mock: FetchLike) => Promise<Response>;

async function ruleAfter(front: Front): Promise<{ status: string; problem?: string; sent: string[] }> {
  const sent: string[] = [];
  const spec = await loadSpecOrThrow(FILE);
  const mock = await createFetchHandler({ document: spec, keys: [{ key: KEY, plan: 'pro' }] });
  const report = await runConformance({
    target: `${ORIGIN}${spec.basePath}`,
    key: KEY,
    specFile: FILE,
    seed: 5,
    maxWaitMs: 2000,
    fetch: async (request) => {
      // The JSON bodies: the 415 case (assume.media-type-415) sends one as text/plain.
      const json = /json/.test(request.headers.get('content-type') ?? '');
      if (request.method === 'PATCH' && json) sent.push(await request.clone().text());
      return front(request, mock);
    },
  });
  const rule = report.rules.find((r) => r.id === 'crud.schedules.json-patch');
  return {
    status: rule?.status ?? 'absent',
    problem: rule?.evidence[0]?.problem,
    sent,
  };
}

describe('crud.<resource>.json-patch', () => {
  it('passes on the mock, having sent a test and a replace', async () => {
    const out = await ruleAfter((request, mock) => mock(request));
    expect(out.status).toBe('pass');
    // Bad bodies (the fuzzing rules) are sent too: only the arrays of operations count here.
    const patches = out.sent.flatMap((text) => {
      try {
        const ops: unknown = JSON.parse(text);
        return Array.isArray(ops) ? [ops as Array<{ op: string; path: string }>] : [];
      } catch {
        return [];
      }
    });
    const change = patches.find((ops) => ops.some((o) => o.op === 'replace'));
    expect(change?.map((o) => o.op)).toEqual(['test', 'replace']);
    expect(change?.[0]?.path).toBe(change?.[1]?.path);
  });

  it('fails a server that refuses an array body (a merge patch only)', async () => {
    const out = await ruleAfter(async (request, mock) =>
      request.method === 'PATCH' && (await request.clone().text()).startsWith('[')
        ? Response.json(
            { name: 'invalid', message: 'a merge patch must leave an object', debug_id: 'd' },
            { status: 400 },
          )
        : mock(request),
    );
    expect(out.status).toBe('fail');
    expect(out.problem).toMatch(/status 400, expected 200/);
  });

  it('fails a server that answers the item unchanged', async () => {
    const out = await ruleAfter((request, mock) =>
      mock(
        request.method === 'PATCH'
          ? new Request(request.url, { method: 'GET', headers: request.headers })
          : request,
      ),
    );
    expect(out.status).toBe('fail');
    expect(out.problem).toMatch(/is .*, expected/);
  });
});
