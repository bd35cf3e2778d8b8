import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadSpecOrThrow, type LoadedSpec, type OperationSpec } from '../../spec/load';
import type { ResourceModel } from '../../spec/resources';
import { outOfReach, withReasons } from './unreached';

const DOC = `openapi: 3.0.3
info: { title: names, version: '1' }
paths:
  /countries/{country}:
    get:
      operationId: country
      parameters: [{ name: country, in: path, required: true, schema: { type: string } }]
      responses: { '200': { description: ok }, '401': { description: no }, '500': { description: broke } }
`;

let spec: LoadedSpec;
beforeAll(async () => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'unreached-')), 'doc.yaml');
  fs.writeFileSync(file, DOC);
  spec = await loadSpecOrThrow(file);
});
const facts = { model: { byOperation: new Map() } as unknown as ResourceModel, rules: [], readOnly: false };
const entry = { operationId: 'country', method: 'get', path: '/countries/{country}', observed: false };

it('says which statuses no client following the document can reach from a healthy server', () => {
  const op = spec.byId.get('country') as OperationSpec;
  expect(outOfReach(op, '500')).toMatch(/server error/);
  expect(outOfReach(op, '401')).toMatch(/declares no security/);
  expect(outOfReach(op, '200')).toBeUndefined();
});

it('tells an operation answered only with undocumented statuses from one never answered', () => {
  const [never] = withReasons(spec, [{ ...entry, status: '200' }], facts);
  expect(never?.reason).toMatch(/no request of the run got an answer/);
  const [other] = withReasons(spec, [{ ...entry, status: '200' }], {
    ...facts,
    answered: new Set(['country']),
  });
  expect(other?.reason).toBe('200: no request of the run led to it');
});
