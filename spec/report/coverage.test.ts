/** Coverage on a large document stays readable: one line per operation with a gap, then a count (issue 30). */
import type { CoverageEntry } from './types';
import { coverageByOperation, coverageGapLines } from './coverage';

const entry = (op: number, status: string, observed: boolean): CoverageEntry => ({
  operationId: `op${op}`,
  method: 'GET',
  path: `/things${op}`,
  status,
  observed,
});

it('groups the statuses of each operation, observed and not', () => {
  const entries = [
    entry(1, '200', true),
    entry(1, '404', false),
    entry(1, '429', false),
    entry(2, '200', true),
  ];
  expect(coverageByOperation(entries)).toEqual([
    { operationId: 'op1', method: 'GET', path: '/things1', observed: ['200'], missing: ['404', '429'] },
    { operationId: 'op2', method: 'GET', path: '/things2', observed: ['200'], missing: [] },
  ]);
  expect(coverageGapLines(entries)).toEqual(['  not observed: op1 GET /things1 404, 429']);
});

it('names the first operations with gaps and counts the rest', () => {
  // DigitalOcean's description: 1,601 pairs not observed printed one a line before.
  const entries = Array.from({ length: 600 }, (_, i) => [
    entry(i, '200', i % 2 === 0),
    entry(i, '401', false),
  ]).flat();
  const lines = coverageGapLines(entries, 25);
  expect(lines).toHaveLength(26);
  expect(lines[0]).toBe('  not observed: op0 GET /things0 401');
  expect(lines[1]).toBe('  not observed: op1 GET /things1 200, 401');
  expect(lines[25]).toBe(
    '  … and 575 more operations with 863 statuses not observed (every pair: the JSON and HTML reports)',
  );
});
