import fs from 'node:fs';
import path from 'node:path';
import { deviationList } from './check';
import { matches, scoreRun, type DeviationList, type Failure } from './score';
import { SERVERS } from './servers';

const failure = (over: Partial<Failure>): Failure => ({
  rule: 'response.documented-status',
  method: 'GET',
  path: '/todos/7',
  status: 404,
  problem: 'findById documents 200, not 404',
  ...over,
});

const list: DeviationList = {
  server: 's',
  document: 'd',
  checked: 'c',
  deviations: [
    {
      id: 'get-404',
      what: 'w',
      rule: 'response.documented-status',
      method: 'GET',
      path: '^/todos/\\d+$',
      status: 404,
    },
    { id: 'create-500', what: 'w', rule: '*', method: 'POST', path: '^/todos$', status: 500 },
  ],
  notDeviations: [],
};

describe('the real-server kit scores a run against its hand-checked list', () => {
  it.each([
    [{}, true],
    [{ method: 'DELETE' }, false],
    [{ status: 400 }, false],
    [{ path: '/todos' }, false],
    [{ rule: 'response.body-schema' }, false],
  ])('matches a failure %j to the deviation: %s', (over, expected) => {
    expect(matches(list.deviations[0]!, failure(over))).toBe(expected);
  });

  it('matches on the problem text when the entry names one (which parameter, which field)', () => {
    const sort = { rule: 'params.*.query-*', status: 200, problem: 'query sort ' };
    const accepted = failure({ rule: 'params.list.query-sort', status: 200 });
    expect(matches(sort, { ...accepted, problem: 'query sort "bogus": answered 200' })).toBe(true);
    expect(matches(sort, { ...accepted, problem: 'query yesterday "bogus": answered 200' })).toBe(false);
  });

  it('counts found, missed and false verdicts, coverage without 5xx, and distinct 5xx', () => {
    const score = scoreRun(
      list,
      [failure({}), failure({ rule: 'response.no-5xx', method: 'GET', path: '/todos', status: 500 })],
      [
        { operationId: 'a', method: 'get', path: '/todos', status: '200', observed: true },
        { operationId: 'a', method: 'get', path: '/todos', status: '500', observed: true },
        { operationId: 'b', method: 'get', path: '/todos/{id}', status: '200', observed: false },
        { operationId: 'b', method: 'get', path: '/todos/{id}', status: '401', observed: false },
      ],
      { called: new Set(['a', 'b']), fives: new Set(['a 500']) },
      (c) => c.status !== '401',
    );
    expect(score.found).toEqual(['get-404']);
    expect(score.missed).toEqual(['create-500']);
    expect(score.falseVerdicts.map((f) => f.path)).toEqual(['/todos']);
    expect(score.pairs).toEqual({ observed: 1, documented: 3, reached: 1, reachable: 2 });
    expect(score.operations).toEqual({ called: 2, total: 2, uncalled: [] });
    expect(score.distinct5xx).toBe(1);
  });

  it('has a hand-checked list for every server of the kit, each entry with a rule and what was seen', () => {
    expect(SERVERS.length).toBeGreaterThanOrEqual(5);
    for (const server of SERVERS) {
      expect(fs.existsSync(path.join(__dirname, `${server.name}.deviations.yaml`))).toBe(true);
      const own = deviationList(server.name);
      expect(own.server).toBe(server.name);
      for (const d of own.deviations)
        expect(d).toMatchObject({
          id: expect.any(String),
          rule: expect.any(String),
          what: expect.any(String),
        });
    }
  });
});
