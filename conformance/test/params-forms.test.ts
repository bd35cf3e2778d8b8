/**
 * Issue 39 on a small hand-written server (test/support/params-forms-server.ts): the parameter cases that need no
 * state catch a lenient integer path value, an ignored boolean query value and a 500 on deleting an unknown id; a
 * multipart-only and a form-only body are written in their encoding; a body the runner cannot build (XML) is
 * never sent; every pair not observed says why, in the JSON, console and JUnit reports.
 */
import path from 'node:path';
import { runConformance } from '../run';
import { formatJunit } from '../../spec/report/junit';
import { formatHuman } from '../../spec/report/human';
import type { Report } from '../types';
import { startParamsServer, type ParamsFault } from '../../test/support/params-forms-server';

const SPEC = path.join(__dirname, '..', '..', 'fixtures', 'specs', 'params-forms-31.yaml');

async function runAgainst(fault?: ParamsFault): Promise<{ report: Report; seen: string[] }> {
  const server = await startParamsServer(fault);
  try {
    const report = await runConformance({
      target: server.url,
      key: '',
      specFile: SPEC,
      scenariosDir: 'none',
      seed: 1,
    });
    return { report, seen: server.seen };
  } finally {
    await server.close();
  }
}

const statusOf = (report: Report, id: string) => report.rules.find((r) => r.id === id)?.status;

let faithful: { report: Report; seen: string[] };
beforeAll(async () => {
  faithful = await runAgainst();
}, 60_000);

it('passes every parameter rule on the faithful server, and fails none of the contract', () => {
  const params = faithful.report.rules.filter((r) => r.id.startsWith('params.'));
  expect(params.map((r) => r.id)).toEqual(
    expect.arrayContaining([
      'params.calc.path-b',
      'params.listWidgets.query-active',
      'params.getWidget.unknown-id',
      'params.deleteWidget.unknown-id',
    ]),
  );
  expect(params.filter((r) => r.status !== 'pass')).toEqual([]);
  const failed = faithful.report.rules.filter((r) => r.status === 'fail' && r.kind === 'contract');
  expect(failed.map((r) => `${r.id}: ${r.evidence[0]?.problem ?? ''}`)).toEqual([]);
});

it('writes the upload as multipart and the subscription as a form; never sends the XML body', () => {
  expect(faithful.seen).toContain('POST /uploads multipart/form-data');
  expect(faithful.seen).not.toContain('POST /uploads application/json');
  expect(faithful.seen).toContain('POST /subscriptions application/x-www-form-urlencoded');
  expect(faithful.seen.filter((s) => s.startsWith('PUT /raw'))).toEqual([]);
  const reached = faithful.report.rules.find((r) => r.id === 'operations.reached');
  expect(reached?.status).toBe('skip');
  expect(reached?.evidence[0]?.problem).toMatch(/putRaw: the body is application\/xml/);
});

it('says why each documented pair was not observed, in every report', () => {
  const reason = (op: string, status: string) =>
    faithful.report.coverage.find((c) => c.operationId === op && c.status === status)?.reason;
  expect(reason('health', '401')).toMatch(/declares no security/);
  expect(reason('health', '503')).toMatch(/server error/);
  expect(reason('putRaw', '204')).toMatch(/application\/xml/);
  expect(reason('calc', '200')).toBeUndefined();
  expect(formatHuman(faithful.report)).toMatch(/401: the document declares no security/);
  expect(formatJunit(faithful.report)).toMatch(/<system-out>[^<]*putRaw PUT \/raw 204[^<]*application\/xml/);
});

it.each<[ParamsFault, string]>([
  ['lenient-integer', 'params.calc.path-b'],
  ['boolean-ignored', 'params.listWidgets.query-active'],
  ['delete-unknown-500', 'params.deleteWidget.unknown-id'],
])(
  'catches %s with %s',
  async (fault, rule) => {
    const { report } = await runAgainst(fault);
    expect(statusOf(report, rule)).toBe('fail');
  },
  60_000,
);
