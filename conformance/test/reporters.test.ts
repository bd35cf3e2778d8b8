import { formatReport } from '../../spec/report';
import type { Report } from '../types';

const REPORT: Report = {
  target: 'http://127.0.0.1:1/v1',
  startedAt: '2026-01-01T00:00:00.000Z',
  durationMs: 1234,
  summary: { pass: 1, fail: 1, skip: 1 },
  rules: [
    {
      id: 'auth.missing-key',
      title: 'No header gives 401',
      kind: 'contract',
      source: '§5',
      status: 'pass',
      evidence: [],
    },
    {
      id: 'categories.create-201',
      title: 'Create gives <201> & a Category',
      kind: 'contract',
      source: '§4',
      status: 'fail',
      evidence: [
        {
          request: {
            method: 'POST',
            url: 'http://127.0.0.1:1/v1/categories',
            headers: { Authorization: 'Bearer good…(masked)' },
            body: '{"name":"x"}',
          },
          response: { status: 200, headers: {}, body: '{"id":"1"}' },
          problem: 'status 200, expected 201',
        },
      ],
    },
    {
      id: 'quota.burst-exact',
      title: 'Burst',
      kind: 'contract',
      source: '§8',
      status: 'skip',
      evidence: [{ request: null, response: null, problem: 'rate-limited: waiting too long' }],
    },
  ],
  coverage: [
    { operationId: 'createCategory', method: 'POST', path: '/categories', status: '201', observed: true },
    { operationId: 'createCategory', method: 'POST', path: '/categories', status: '429', observed: false },
  ],
};

describe('reporters', () => {
  it('json is the report object itself', () => {
    expect(JSON.parse(formatReport(REPORT, 'json'))).toEqual(REPORT);
  });

  it('human shows a line per rule, the evidence with the masked key, coverage gaps and the seed', () => {
    const text = formatReport(REPORT, 'human', { seed: 9 });
    expect(text).toMatch(/seed 9/);
    expect(text).toMatch(/PASS auth\.missing-key/);
    expect(text).toMatch(/FAIL categories\.create-201 .*status 200, expected 201/);
    expect(text).toMatch(/SKIP quota\.burst-exact .*rate-limited/);
    expect(text).toContain(
      'POST http://127.0.0.1:1/v1/categories [Authorization: Bearer good…(masked)] -> 200',
    );
    expect(text).toContain('not observed: createCategory POST /categories 429');
    expect(text).toContain('1 passed, 1 failed, 1 skipped');
  });

  it('junit has one escaped test case per rule, with failure and skipped elements', () => {
    const xml = formatReport(REPORT, 'junit');
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>/);
    expect(xml).toContain('<testsuites name="conformance" tests="3" failures="1" skipped="1"');
    expect(xml.match(/<testcase /g)).toHaveLength(3);
    expect(xml).toContain('Create gives &lt;201&gt; &amp; a Category');
    expect(xml).toContain('<failure type="contract" message="status 200, expected 201">');
    expect(xml).toContain('<skipped message="rate-limited: waiting too long"/>');
  });

  it('markdown is a table with evidence and coverage', () => {
    const md = formatReport(REPORT, 'markdown');
    expect(md).toContain('| status | rule | kind | source | title | why |');
    expect(md).toContain('| ❌ fail | `categories.create-201` | contract | §4 |');
    expect(md).toContain('### Evidence');
    expect(md).toContain('### Coverage: 1/2 observed');
  });
});
