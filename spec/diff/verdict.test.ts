/**
 * The release gate's every format says what it judged, what was outside the old document and what was counted
 * apart; a breaking change on an operation the traffic called, but did not exercise, is `not hit`, not `unused`.
 */
import { REPORTERS } from '../report';
import { formatDiff } from './report';
import type { Change, DiffResult, TrafficReplay } from './types';
import { classifyChanges, diffVerdict } from './verdict';

const change = (operationId: string, path: string): Change => ({
  kind: 'request.property.required',
  breaking: true,
  side: 'request',
  method: 'PUT',
  path,
  operationId,
  where: 'body /status',
  message: 'status is newly required',
});

// 8 recorded: 6 outside the old document, 1 the old version refused, 1 judged (a replace the new one accepts).
const traffic: TrafficReplay = {
  files: ['night.har'],
  recorded: 8,
  outside: 6,
  alreadyRefused: 1,
  operations: [
    {
      operationId: 'replacePet',
      method: 'PUT',
      path: '/pets/{petId}',
      calls: 2,
      refused: 0,
      rejected: 0,
      removed: false,
      reasons: {},
      examples: [],
      statuses: { '200': 1 },
    },
  ],
};

function result(): DiffResult {
  const changes = classifyChanges(
    [change('replacePet', '/pets/{petId}'), change('replaceOrder', '/orders/{id}')],
    traffic,
  );
  return { old: { file: 'old.yaml' }, new: { file: 'new.yaml' }, changes, traffic };
}

it.each(REPORTERS.filter((n) => n !== 'coverage'))(
  'the %s report says what was judged, outside and counted apart',
  (name) => {
    const r = result();
    const text = formatDiff(r, diffVerdict(r.changes, traffic), name, false);
    if (name === 'json') {
      expect(JSON.parse(text)).toMatchObject({ traffic: { recorded: 8, outside: 6, alreadyRefused: 1 } });
      return;
    }
    expect(text).toMatch(/1 of 8 recorded requests judged/);
    expect(text).toMatch(/6 of 8 recorded requests outside the old document|6 outside the old document/);
    expect(text).toMatch(/1 of 8 recorded requests already refused|1 already refused by the old version/);
  },
);

it('the human verdict counts refusals out of the judged requests, not out of every recorded one', () => {
  const r = result();
  const text = formatDiff(r, diffVerdict(r.changes, traffic), 'human', false);
  expect(text).toContain('0 of 1 judged requests, from 0 operations, would be refused by the new version');
  expect(text).not.toMatch(/of 8 recorded requests, from/);
});

it('a breaking change on a used operation is "not hit"; on an operation no call uses, "unused"', () => {
  const r = result();
  const text = formatDiff(r, diffVerdict(r.changes, traffic), 'human', false);
  expect(text).toMatch(/BREAKING\s+not hit\s+PUT \/pets\/\{petId\}/);
  expect(text).toMatch(/BREAKING\s+unused\s+PUT \/orders\/\{id\}/);
  const junit = formatDiff(r, diffVerdict(r.changes, traffic), 'junit', false);
  expect(junit).toContain('1 recorded call(s) of the operation, none exercises it');
  expect(junit).toContain('no recorded call uses the operation');
});
