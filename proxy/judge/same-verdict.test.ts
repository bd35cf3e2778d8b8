/**
 * One response judge (issue 29): the same exchange gets the same response-side verdict from the runner's
 * per-exchange checks (spec/http/response-checks.ts, spec/http/ratelimit-ietf.ts) and the proxy's judge.
 */
import { compileSpec, type LoadedSpec } from '../../spec/load';
import { rateLimitFieldsJudge } from '../../spec/http/ratelimit-ietf';
import { responseChecker } from '../../spec/http/response-checks';
import type { Exchange } from '../../spec/report/types';
import { createJudge } from './judge';

const error = { description: 'e', content: { 'application/json': { schema: { type: 'object' as const } } } };
const spec = compileSpec(
  'doc.json',
  {
    openapi: '3.1.0',
    info: { title: 'T', version: '1' },
    paths: {
      '/things/{id}': {
        delete: {
          operationId: 'removeThing',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
          responses: { '204': { description: 'gone' }, '429': error, '404': error },
        },
      },
    },
  },
  false,
) as LoadedSpec;

const NOW = Date.parse('2026-01-01T00:00:00Z');
const cases: Array<[string, number, Record<string, string>, string]> = [
  ['a clean 204', 204, {}, ''],
  ['a 204 with a body', 204, { 'content-type': 'application/json' }, '{"a":1}'],
  ['RateLimit r above its policy q', 404, { ratelimit: '"m";r=9', 'ratelimit-policy': '"m";q=5' }, '{}'],
  ['a RateLimit field that does not parse', 404, { ratelimit: '"m";r=' }, '{}'],
  ['a 429 earlier than RateLimit t', 429, { ratelimit: '"m";r=0;t=60', 'retry-after': '1' }, '{}'],
  ['a 429 with Retry-After as a date', 429, { 'retry-after': 'Thu, 01 Jan 2026 00:01:00 GMT' }, '{}'],
];

/** The response-side rules each tool fails, sorted. */
function runnerFails(ex: Exchange): string[] {
  const findings = [...responseChecker(spec)(ex), ...rateLimitFieldsJudge().observe(ex)];
  return findings.filter((f) => f.outcome === 'fail').map((f) => f.ruleId);
}

it.each(cases)('%s: the runner and the proxy judge fail the same rules', (_name, status, extra, body) => {
  const headers = { 'content-type': 'application/json', ...extra };
  const judge = createJudge(spec, () => NOW);
  const req = { method: 'DELETE', url: '/things/7', headers: {} };
  const { route, problems } = judge.request(req);
  expect(problems).toEqual([]);
  const proxy = judge.response(req, route, problems, { status, headers, body, at: NOW });
  const ex: Exchange = {
    request: { method: 'DELETE', url: '/things/7', headers: {} },
    response: { status, headers, body, json: body ? (JSON.parse(body) as unknown) : undefined },
    operationId: 'removeThing',
    receivedAt: NOW,
  };
  const judged = proxy.map((p) => p.rule);
  expect(judged.sort()).toEqual(runnerFails(ex).sort());
  if (status === 204 && body) expect(judged).toContain('response.empty-body');
  expect(judged.length > 0).toBe(_name !== 'a clean 204');
});
