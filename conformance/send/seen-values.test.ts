import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadSpecOrThrow, type LoadedSpec, type OperationSpec } from '../../spec/load';
import { namesOf, seenValues } from './seen-values';

const DOC = `openapi: 3.0.3
info: { title: names, version: '1' }
paths:
  /countries/{countries}:
    get:
      parameters: [{ name: countries, in: path, required: true, schema: { type: string } }]
      responses: { '200': { description: ok } }
  /historical/{country}/{province}:
    get:
      parameters:
        - { name: country, in: path, required: true, schema: { type: string } }
        - { name: province, in: path, required: true, schema: { type: string } }
      responses: { '200': { description: ok } }
  /gov/{country}:
    get:
      parameters: [{ name: country, in: path, required: true, schema: { type: string, maxLength: 10 } }]
      responses: { '200': { description: ok } }
  /provinces/{province}:
    get:
      parameters: [{ name: province, in: path, required: true, schema: { type: string } }]
      responses: { '200': { description: ok } }
  /items/{id}:
    get:
      parameters: [{ name: id, in: path, required: true, schema: { type: integer } }]
      responses: { '200': { description: ok } }
`;

let spec: LoadedSpec;
beforeAll(async () => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'seen-')), 'names.yaml');
  fs.writeFileSync(file, DOC);
  spec = await loadSpecOrThrow(file);
});
const op = (p: string) => spec.operations.find((o) => o.path === p) as OperationSpec;

it('reads a parameter by its name or its singular', () => {
  expect(namesOf('countries')).toEqual(['countries', 'country']);
  expect(namesOf('counties')).toEqual(['counties', 'county']);
  expect(namesOf('sub-regions')).toEqual(['subregions', 'subregion']);
  expect(namesOf('address')).toEqual(['address']);
});

it('names a read by a value an earlier answer gave, one object covering all its parameters first', () => {
  const seen = seenValues();
  seen.observe('/historical', [
    { country: 'Afghanistan', province: null },
    { country: 'Australia', province: 'tasmania', timeline: { cases: { '1/1/21': 3 } } },
  ]);
  expect(seen.pathValues(op('/countries/{countries}'))).toEqual({ countries: 'Afghanistan' });
  expect(seen.pathValues(op('/historical/{country}/{province}'))).toEqual({
    country: 'Australia',
    province: 'tasmania',
  });
  expect(seen.answered('/historical')).toBe(true);
  expect(seen.answered('/gov')).toBe(false);
});

it('takes a bare list answered above a parameter as its values, only those the parameter accepts', () => {
  const seen = seenValues();
  // Its template ends in a slash: `/gov/` lists what `/gov/{country}` reads.
  seen.observe('/gov/', ['Czech Republic', 'Chile']);
  expect(seen.pathValues(op('/gov/{country}'))).toEqual({ country: 'Chile' });
  seen.observe('/items', [{ id: 'abc' }, { id: 7 }]);
  expect(seen.pathValues(op('/items/{id}'))).toEqual({ id: '7' });
});

it("prefers the answer of the read above the parameter's own path: a list names its own items", () => {
  const seen = seenValues();
  seen.observe('/elsewhere', [{ province: 'not-here' }]);
  seen.observe('/provinces', [{ province: 'here' }]);
  expect(seen.pathValues(op('/provinces/{province}'))).toEqual({ province: 'here' });
});

it('stays bounded: records per answer and nodes walked', () => {
  const seen = seenValues({ nodes: 50, recordsPerAnswer: 3, records: 5, listValues: 2 });
  seen.observe(
    '/a',
    Array.from({ length: 1000 }, (_, i) => ({ country: `c${i}` })),
  );
  seen.observe(
    '/b',
    Array.from({ length: 1000 }, (_, i) => ({ province: `p${i}` })),
  );
  seen.observe(
    '/c',
    Array.from({ length: 1000 }, (_, i) => ({ id: i })),
  );
  // Three of /a and two of /b kept (five in all): nothing of /c.
  expect(seen.pathValues(op('/items/{id}'))).toEqual({});
  expect(seen.pathValues(op('/historical/{country}/{province}'))).toEqual({ country: 'c0' });
  expect(seen.pathValues(op('/provinces/{province}'))).toEqual({ province: 'p0' });
});
