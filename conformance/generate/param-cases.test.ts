import path from 'node:path';
import { loadSpecOrThrow, type LoadedSpec, type OperationSpec } from '../../spec/load';
import { compileSpec } from '../../spec/compile';
import { fillPath, paramCases } from './param-cases';

const SPEC = path.join(__dirname, '..', '..', 'fixtures', 'specs', 'params-forms-31.yaml');
let spec: LoadedSpec;
beforeAll(async () => {
  spec = await loadSpecOrThrow(SPEC);
});
const op = (id: string) => spec.byId.get(id) as OperationSpec;
const sent = (id: string) =>
  paramCases(op(id), 'conformance-t').map((c) => `${c.name} ${c.expect} ${c.label}`);

it('gives every path parameter the values its type, format, bounds and enum refuse, the others valid', () => {
  const cases = paramCases(op('calc'), 'conformance-t');
  expect(cases.map((c) => `${c.name} ${c.label}`)).toEqual(
    expect.arrayContaining([
      'path-op path op "not-in-the-enum"',
      'path-a path a "forty-two"',
      'path-b path b "-1"',
      'path-b path b "101"',
      'path-b path b "forty-two"',
      'path-b path b "1.5"',
    ]),
  );
  // Only what the document forbids: 1.5 is a number, so `a` gets no fraction case.
  expect(cases.some((c) => c.name === 'path-a' && c.label.includes('1.5'))).toBe(false);
  const b = cases.find((c) => c.label === 'path b "1.5"');
  expect(b?.path).toEqual({ op: 'add', a: expect.any(String), b: '1.5' });
  expect(b?.problem).toMatch(/b must be integer/);
  // A GET whose last segment is a computation value still gets an unknown value (any answer but a 5xx is fine).
  expect(cases.filter((c) => c.expect === 'unknown').map((c) => c.path.b)).toEqual(['100']);
});

it('gives every query parameter a value out of type, enum, format and pattern', () => {
  expect(sent('listWidgets')).toEqual(
    expect.arrayContaining([
      'query-active refused query active "maybe"',
      'query-sort refused query sort "not-in-the-enum"',
      'query-since refused query since "2024-13-45T99:00:00Z"',
      'query-label refused query label "maybe"',
    ]),
  );
  expect(sent('listWidgets').some((c) => c.includes('unknown'))).toBe(false);
});

it('sends a malformed and a well-formed unknown id on GET and DELETE of an item', () => {
  for (const id of ['getWidget', 'deleteWidget']) {
    const cases = paramCases(op(id), 'conformance-t');
    expect(cases.map((c) => `${c.name} ${c.expect}`)).toEqual(
      expect.arrayContaining(['path-widgetId refused', 'unknown-id unknown']),
    );
    expect(cases.find((c) => c.expect === 'unknown')?.path.widgetId).toBe(
      '00000000-0000-4000-8000-0000deadbeef',
    );
  }
  expect(paramCases(op('health'), 'conformance-t')).toEqual([]);
});

describe('a path value left empty', () => {
  const ok = { '200': { description: 'ok' } };
  const missing = { ...ok, '404': { description: 'Not Found' } };
  const int = { type: 'integer' as const };
  const param = (name: string) => ({ name, in: 'path' as const, required: true, schema: int });
  const doc = compileSpec(
    'doc.json',
    {
      openapi: '3.1.0',
      info: { title: 'T', version: '1' },
      paths: {
        '/bessj/{n}/{x}': {
          get: { operationId: 'bessj', parameters: [param('n'), param('x')], responses: missing },
        },
        '/todos': { get: { operationId: 'list', responses: ok } },
        '/todos/{id}': { get: { operationId: 'find', parameters: [param('id')], responses: missing } },
        '/calc/{a}': { get: { operationId: 'calc', parameters: [param('a')], responses: ok } },
      },
    },
    false,
  ) as LoadedSpec;
  const empties = (id: string) =>
    paramCases(doc.byId.get(id) as OperationSpec, 'conformance-t', doc)
      .filter((c) => c.label.includes('left empty'))
      .map((c) => `${c.name} ${fillPath(doc.byId.get(id)?.path ?? '', c.path)} ${c.expect}`);

  it('is sent for each path parameter of an operation that documents a 404', () => {
    expect(empties('bessj')).toEqual([
      expect.stringMatching(/^path-n \/bessj\/\/-?\d+ refused$/),
      expect.stringMatching(/^path-x \/bessj\/-?\d+\/ refused$/),
    ]);
  });

  it('is not sent where a documented path takes it once the slash goes, nor where no 404 is documented', () => {
    expect(empties('find')).toEqual([]);
    expect(empties('calc')).toEqual([]);
  });
});
