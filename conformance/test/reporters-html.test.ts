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
            headers: { Authorization: 'Bearer good-key-unmasked', 'Content-Type': 'application/json' },
            body: '{"name":"<script>alert(1)</script>"}',
          },
          response: { status: 200, headers: { 'content-type': 'application/json' }, body: '{"id":"1"}' },
          problem: 'status 200, expected 201',
        },
      ],
    },
    {
      id: 'assume.unknown-path-404',
      title: 'Unknown path',
      kind: 'assumption',
      source: '§4',
      status: 'skip',
      evidence: [{ request: null, response: null, problem: 'rate-limited: waiting too long' }],
    },
  ],
  coverage: [
    { operationId: 'createCategory', method: 'POST', path: '/categories', status: '201', observed: true },
    { operationId: 'createCategory', method: 'POST', path: '/categories', status: '429', observed: false },
    { operationId: 'listCategories', method: 'GET', path: '/categories', status: '200', observed: true },
  ],
};

describe('the html reporter', () => {
  const html = formatReport(REPORT, 'html', { seed: 7 });

  it('is one self-contained page: inline style and script, nothing fetched from elsewhere', () => {
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toMatch(/<style>[\s\S]+<\/style>/);
    expect(html).toMatch(/<script>[\s\S]+<\/script>/);
    expect(html).not.toMatch(/<(script|img|link|iframe)[^>]+(src|href)=/i);
    expect(html).not.toMatch(/url\(/);
  });

  it('has the summary bar, the seed and a row per rule with its status and kind', () => {
    expect(html).toContain('aria-label="1 passed, 1 failed, 1 skipped"');
    expect(html).toContain('seed 7');
    for (const rule of REPORT.rules)
      expect(html).toContain(`data-id="${rule.id}" data-status="${rule.status}" data-kind="${rule.kind}"`);
    expect(html).toContain('1 contract rule failed');
  });

  it('puts evidence of a failing rule behind a toggle, escaped, with the key masked', () => {
    expect(html).toMatch(/aria-controls="evidence-1"[^>]*>evidence \(1\)/);
    expect(html).toContain('<tr class="evidence" id="evidence-1" hidden>');
    expect(html).toContain('status 200, expected 201');
    expect(html).toContain('Authorization: Bearer good…(masked)');
    expect(html).not.toContain('good-key-unmasked');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('Create gives &lt;201&gt; &amp; a Category');
  });

  it('has the coverage matrix: observed, documented but not observed, not documented', () => {
    expect(html).toContain('Coverage: 2/3 documented (operation, status) pairs observed');
    const matrix = html.slice(html.indexOf('<table id="coverage">'));
    expect(matrix).toMatch(/<th>200<\/th><th>201<\/th><th>429<\/th>/);
    expect(matrix).toMatch(
      /createCategory<\/code>.*<td class="na"[^>]*><\/td><td class="yes"[^>]*>✓<\/td><td class="no"/,
    );
  });
});

describe('the html reporter with a lifecycle failure', () => {
  it("shows the steps that led to the failing exchange, in order, and the clean-up's leftovers", () => {
    const step = (method: string, url: string, status: number) => ({
      request: { method, url, headers: { Authorization: 'Bearer good…(masked)' } },
      response: { status, headers: {}, body: '{}' },
    });
    const html = formatReport(
      {
        ...REPORT,
        rules: [
          {
            id: 'crud.pets.delete-then-404',
            title: 'A deleted pets item reads as 404',
            kind: 'contract',
            source: '/pets + /pets/{petId}',
            status: 'fail',
            evidence: [
              {
                ...step('GET', 'http://h/v1/pets/7', 200),
                problem: 'GET /pets/7: status 200, expected 404',
                steps: [step('POST', 'http://h/v1/pets', 201), step('DELETE', 'http://h/v1/pets/7', 204)],
              },
            ],
          },
        ],
        cleanup: { deleted: 3, leftovers: [{ resource: 'pets', id: '7', reason: 'DELETE answered 500' }] },
      },
      'html',
    );
    const order = [
      'Step 1',
      'POST http://h/v1/pets',
      'Step 2',
      'DELETE http://h/v1/pets/7',
      'Failing step',
      'GET http://h/v1/pets/7',
    ];
    const at = order.map((text) => html.indexOf(text));
    expect(at.every((i) => i > 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(html).toContain('Clean-up: 3 deleted, 1 left on the target');
    expect(html).toContain('<td>DELETE answered 500</td>');
  });
});
