import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadSpecOrThrow } from '../load';
import { diffSpecs } from './compare';

const ROOT = path.join(__dirname, '..', '..');
const FULL = path.join(ROOT, 'fixtures', 'specs', 'petstore-full.yaml');
const NEXT = path.join(ROOT, 'fixtures', 'specs', 'history', 'petstore-next.yaml');
const SHELF = path.join(ROOT, 'fixtures', 'specs', 'wild', 'shelf-20.yaml');

const line = (c: { breaking: boolean; kind: string; operationId: string; status?: string; where: string }) =>
  `${c.breaking ? 'B' : 'c'} ${c.kind} ${c.operationId}${c.status ? ` ${c.status}` : ''} ${c.where}`.trim();

it("the pet store's next version: the planted changes, each classified, nothing else", async () => {
  const changes = diffSpecs(await loadSpecOrThrow(FULL), await loadSpecOrThrow(NEXT)).map(line);
  expect(changes.filter((c) => c.startsWith('B'))).toEqual([
    'B request.property.required createPet body /status',
    'B request.property.required replacePet body /status',
    'B operation.removed deleteOrder',
  ]);
  expect(changes).toContain('c request.parameter.added listPets query parameter status');
  expect(changes).toContain('c response.property.added getPetById 200 body /adoptedAt');
  expect(changes).toContain('c response.bound.narrowed getPetById 200 body /tag');
  expect(changes).toHaveLength(14);
});

it('the same document has no change; a readOnly property newly required is not a request change', async () => {
  const full = await loadSpecOrThrow(FULL);
  expect(diffSpecs(full, full)).toEqual([]);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'diff-'));
  const next = path.join(dir, 'read-only.yaml');
  fs.writeFileSync(
    next,
    fs
      .readFileSync(FULL, 'utf8')
      .replace(
        '    NewPet:\n      type: object\n      required: [name]',
        '    NewPet:\n      type: object\n      required: [name, createdAt]',
      )
      .replace(
        '        categoryId: { type: integer, format: int64, minimum: 1 }\n    Pet:',
        '        categoryId: { type: integer, format: int64, minimum: 1 }\n        createdAt: { type: string, readOnly: true }\n    Pet:',
      ),
  );
  expect(diffSpecs(full, await loadSpecOrThrow(next))).toEqual([]);
});

it('a Swagger 2.0 document is compared after its upgrade: a new required query parameter, a removed status', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'diff-'));
  const text = fs
    .readFileSync(SHELF, 'utf8')
    .replace(
      '      operationId: listShelfBooks\n      responses:',
      '      operationId: listShelfBooks\n      parameters:\n        - { name: shelf, in: query, required: true, type: string }\n      responses:',
    )
    .replace(
      "          description: Added\n          schema: { $ref: '#/definitions/Book' }\n        '400': { $ref: '#/responses/BadRequest' }\n",
      "          description: Added\n          schema: { $ref: '#/definitions/Book' }\n",
    );
  const next = path.join(dir, 'shelf-next.yaml');
  fs.writeFileSync(next, text);
  const changes = diffSpecs(await loadSpecOrThrow(SHELF), await loadSpecOrThrow(next)).map(line);
  expect(changes).toEqual([
    'B request.parameter.required listShelfBooks query parameter shelf',
    'B response.status.removed addShelfBook 400',
  ]);
});

it('an OpenAPI 3.2 document: QUERY and additional operations compared, a querystring schema narrowed (issue 33)', async () => {
  const THINGS = path.join(ROOT, 'fixtures', 'specs', 'things-32.yaml');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'diff-32-'));
  const next = path.join(dir, 'things-next.yaml');
  fs.writeFileSync(
    next,
    fs
      .readFileSync(THINGS, 'utf8')
      .replace(
        'limit: { type: integer, minimum: 1, maximum: 50 }',
        'limit: { type: integer, minimum: 1, maximum: 20 }',
      )
      .replace(/ {6}LINK:\n( {8}.*\n| {10}.*\n)+?(?= {6}FROB:)/, ''),
  );
  const changes = diffSpecs(await loadSpecOrThrow(THINGS), await loadSpecOrThrow(next)).map(line);
  expect(changes).toEqual(
    expect.arrayContaining([
      'B operation.removed linkThing',
      expect.stringMatching(/^B request\.\S+ listReports querystring parameter filter\/limit/),
    ]),
  );
  fs.rmSync(dir, { recursive: true, force: true });
});
