import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadSpecOrThrow, type LoadedSpec, type OperationSpec } from '../../spec/load';
import { seenValues } from '../send/seen-values';
import { pathTexts, readsByName } from './seen-path';

const DOC = `openapi: 3.0.3
info: { title: items, version: '1' }
paths:
  /items/{name}:
    get:
      parameters: [{ name: name, in: path, required: true, schema: { type: string } }]
      responses: { '200': { description: ok } }
    delete:
      parameters: [{ name: name, in: path, required: true, schema: { type: string } }]
      responses: { '204': { description: gone } }
`;

let spec: LoadedSpec;
beforeAll(async () => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'seen-path-')), 'items.yaml');
  fs.writeFileSync(file, DOC);
  spec = await loadSpecOrThrow(file);
});
const op = (method: string) =>
  spec.operations.find((o) => o.method.toLowerCase() === method) as OperationSpec;

it('sends a read with a name the server gave, never a write (a seen name may be data the run did not make)', () => {
  const seen = seenValues();
  seen.observe('/items', [{ name: 'kept-by-the-server' }]);
  expect(readsByName(op('get'))).toBe(true);
  expect(pathTexts(op('get'), { seen })).toEqual({ name: 'kept-by-the-server' });
  expect(readsByName(op('delete'))).toBe(false);
  expect(pathTexts(op('delete'), { seen }).name).not.toBe('kept-by-the-server');
});
