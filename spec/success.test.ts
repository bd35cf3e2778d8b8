import type { OperationSpec, ResponseSpec } from './compile';
import { answerStatus, successStatuses, successStatusOf } from './success';

const op = (...statuses: string[]): OperationSpec =>
  ({
    responses: new Map(
      statuses.map((s) => [s, { status: s, description: '', mediaTypes: [], headers: [] } as ResponseSpec]),
    ),
  }) as unknown as OperationSpec;

describe('the success of an operation', () => {
  it.each([
    [['200', '201', '400'], 'create', 201],
    [['200', '204'], 'remove', 204],
    [['202', '400'], 'read', 202],
    [['2XX', '404'], 'create', 201],
    [['2XX'], 'read', 200],
    [['default'], 'list', 200],
  ] as const)('%j answers a %s with %d', (statuses, action, status) => {
    expect(answerStatus(op(...statuses), action)).toBe(status);
  });

  it('accepts every 2xx under a range or a success documented as default, only the documented ones else', () => {
    expect(successStatuses(op('2XX'))).toEqual(expect.arrayContaining(['200', '201', '204']));
    expect(successStatuses(op('default'))).toContain('201');
    expect(successStatuses(op('201', 'default'))).toEqual(['201']);
  });

  it('says there is none when only errors are documented', () => {
    expect(successStatusOf(op('400', '404'))).toBeUndefined();
  });
});
