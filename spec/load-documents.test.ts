/** loadSpec on documents as teams write them: relative files, 3.0 and Swagger 2.0, vendor keywords, bad spots. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { takeStrictWarnings } from './ajv';
import { loadSpec, loadSpecOrThrow } from './load';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'spec-docs-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Write `files` (name -> text) into a fresh folder; returns the path of the first one. */
let folders = 0;
function write(files: Record<string, string>): string {
  const dir = path.join(tmp, String(folders++));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return path.join(dir, Object.keys(files)[0] ?? '');
}

const ok = async (file: string) => {
  const result = await loadSpec(file);
  if (!result.ok) throw new Error(result.error);
  return result;
};

const MAIN_30 = `openapi: 3.0.3
info:
  title: Files
  version: '1'
  description:
    $ref: ./README.md
paths:
  /bookings:
    get:
      operationId: listBookings
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: array
                items: { $ref: './schemas/booking.yaml' }
              examples:
                one: { $ref: './examples/one.yaml' }
                two: { externalValue: './examples/two.json' }
`;
const FILES = {
  'main.yaml': MAIN_30,
  'README.md': '# Bookings\nWritten in **Markdown**.\n',
  'schemas/booking.yaml': `type: object
required: [id]
properties:
  id: { type: string }
  notes: { type: string, nullable: true }
  trip: { $ref: './trip.yaml' }
`,
  'schemas/trip.yaml': 'type: object\nproperties:\n  origin: { type: string }\n',
  'examples/one.yaml': 'summary: one\nvalue: [{ id: a }]\n',
  'examples/two.json': '[{ "id": "b" }]',
};

describe('relative files beside the document', () => {
  it('resolve: schemas (also from a schema file), examples, example files and Markdown', async () => {
    const file = write(FILES);
    const { spec, files, warnings } = await ok(file);
    expect(warnings).toEqual([]);
    const media = spec.document.paths?.['/bookings']?.get?.responses?.['200'] as {
      content: Record<string, { schema: unknown; examples: Record<string, unknown> }>;
    };
    const json = media.content['application/json'];
    expect(json?.schema).toMatchObject({
      items: { properties: { notes: { type: ['string', 'null'] }, trip: { properties: { origin: {} } } } },
    });
    expect(json?.examples).toEqual({
      one: { summary: 'one', value: [{ id: 'a' }] },
      two: { value: [{ id: 'b' }] },
    });
    expect(spec.document.info.description).toContain('Written in **Markdown**');
    const validate = spec.byId.get('listBookings')?.responses.get('200')?.validateBody;
    expect(validate?.([{ id: 'a', notes: null }])).toBe(true);
    expect(validate?.([{ notes: 'x' }])).toBe(false);
    const dir = path.dirname(file);
    expect(files.map((f) => path.relative(dir, f)).sort()).toEqual(Object.keys(FILES).sort());
  });

  it('are all hashed by the validation cache: a change in any of them means a new validation', async () => {
    const file = write(FILES);
    expect((await ok(file)).spec.fromCache).toBe(false);
    expect((await ok(file)).spec.fromCache).toBe(true);
    for (const name of ['schemas/trip.yaml', 'examples/two.json', 'README.md']) {
      const target = path.join(path.dirname(file), name);
      fs.appendFileSync(target, name.endsWith('.json') ? ' ' : '\n');
      expect((await ok(file)).spec.fromCache).toBe(false);
      expect((await ok(file)).spec.fromCache).toBe(true);
    }
    fs.writeFileSync(path.join(path.dirname(file), 'schemas/trip.yaml'), 'type: object\nrequired: 7\n');
    const broken = await loadSpec(file);
    expect(broken.ok).toBe(false);
  });

  it('an example file that cannot be read is left out with a warning, not a refusal', async () => {
    const file = write({ ...FILES, 'examples/two.json': '' });
    fs.rmSync(path.join(path.dirname(file), 'examples/two.json'));
    const { warnings } = await ok(file);
    expect(warnings).toEqual([
      expect.stringMatching(
        /example file \.\/examples\/two\.json \(at #\/paths\/.*\/examples\/two\/externalValue\)/,
      ),
    ]);
  });

  it('a missing schema file is refused, naming it', async () => {
    // Only the schema is missing (the example files are there), so the refusal has one file to name.
    const file = write({
      'main.yaml': MAIN_30,
      'README.md': 'x',
      'examples/one.yaml': FILES['examples/one.yaml'],
      'examples/two.json': '[]',
    });
    const result = await loadSpec(file);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error).toMatch(
        /schemas\/booking\.yaml.*referenced at #\/paths\/~1bookings\/get\/responses\/200/s,
      );
    }
  });
});

const CUSTOM_31 = `openapi: 3.1.0
info: { title: Custom, version: '1' }
servers:
  - url: https://{host}/shop/{v}
    variables:
      host: { default: shop.example.com, description: the shop's host }
      v: { default: v2 }
paths:
  /addresses:
    post:
      operationId: addAddress
      requestBody:
        content:
          application/json:
            schema: { $ref: '#/components/schemas/Address' }
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Address' }
components:
  schemas:
    Address:
      type: object
      x-my-model: true
      required: [country]
      properties:
        country: { type: string, format: iso-country-code, x-label: Country }
        zip: { type: string, nullable: true }
`;

describe('a document with vendor keywords and a custom format', () => {
  it('loads, with one warning for the format, remembered with the validation', async () => {
    const file = write({ 'custom.yaml': CUSTOM_31 });
    const first = await ok(file);
    const second = await ok(file);
    expect(second.spec.fromCache).toBe(true);
    for (const { warnings } of [first, second]) {
      // Issue 26.9: the 3.0 `nullable` left in this 3.1 document is honoured with one line at start.
      expect(warnings).toEqual([
        expect.stringMatching(/^1 schema\(s\) use the OpenAPI 3\.0 keyword nullable/),
        expect.stringMatching(/^unknown format "iso-country-code"/),
      ]);
    }
    const validate = first.spec.byId.get('addAddress')?.requestBody?.validate;
    expect(validate?.({ country: 'DE', zip: null })).toBe(true);
    expect(validate?.({ country: 49 })).toBe(false);
    // A server variable's description survives (swagger-parser's 3.1 schema misspells it).
    expect(first.spec.document.servers?.[0]?.variables?.host?.description).toBe("the shop's host");
  });
});

const SWAGGER_2 = `swagger: '2.0'
info: { title: Old, version: '1' }
host: old.example.com
basePath: /v2
securityDefinitions:
  basic: { type: basic }
security: [{ basic: [] }]
paths:
  /pets:
    post:
      operationId: addPet
      consumes: [application/json]
      produces: [application/json]
      parameters:
        - { name: body, in: body, required: true, schema: { $ref: '#/definitions/Pet' } }
      responses:
        '200': { description: ok, schema: { $ref: '#/definitions/Pet' } }
definitions:
  Pet:
    type: object
    required: [name]
    properties:
      name: { type: string, x-nullable: true }
`;

describe('Swagger 2.0', () => {
  it('is converted to 3.1 with a warning that says how to convert the file for good', async () => {
    const { spec, warnings } = await ok(write({ 'swagger.yaml': SWAGGER_2 }));
    expect(spec.document.openapi).toMatch(/^3\.1\./);
    expect(spec.document.components?.securitySchemes?.basic).toEqual({ type: 'http', scheme: 'basic' });
    expect(spec.byId.get('addPet')?.requestBody?.validate({ name: null })).toBe(true);
    expect(warnings).toEqual([expect.stringMatching(/Swagger 2\.0 .*swagger2openapi/)]);
  });

  it('is refused when invalid, naming the spot in the file as written', async () => {
    const result = await loadSpec(write({ 'swagger.yaml': SWAGGER_2.replace("'200'", 'twohundred') }));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(/#\/paths\/~1pets\/post\/responses/);
  });
});

describe('a truly invalid 3.0 document is still refused, naming the JSON pointer', () => {
  const DOC_30 = `openapi: 3.0.3
info: { title: Bad, version: '1' }
paths:
  /pets:
    get:
      operationId: listPets
      deprecated: false
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Pet' }
components:
  schemas:
    Pet:
      type: object
      properties:
        name: { type: string, minLength: 1 }
`;
  it('loads as written', async () => {
    expect((await ok(write({ 'doc.yaml': DOC_30 }))).spec.document.openapi).toMatch(/^3\.1\./);
  });

  it.each([
    ['deprecated: false', 'deprecated: maybe', /#\/paths\/~1pets\/get\/deprecated must be boolean/],
    ['minLength: 1', 'minLength: three', /#\/components\/schemas\/Pet: .*minLength/],
    ["'#/components/schemas/Pet'", "'#/components/schemas/Dog'", /Dog.*referenced at #\/paths\/~1pets/s],
    ['openapi: 3.0.3', 'openapi: 3.3.0', /Unsupported OpenAPI version: 3\.3\.0/],
  ])('%s -> %s', async (good, bad, message) => {
    const result = await loadSpec(write({ 'doc.yaml': DOC_30.replace(good, bad) }));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(message);
  });
});

describe('the contract document', () => {
  it('loads without a warning: nothing in it is unknown to the tools', async () => {
    const result = await loadSpec();
    expect(result.ok && result.warnings).toEqual([]);
    expect(result.ok && result.files).toEqual([path.join(__dirname, 'openapi.yaml')]);
    await expect(loadSpecOrThrow()).resolves.toBeDefined();
  });
});

describe('strict-mode rules never refuse a valid document (issue 21)', () => {
  const DOC = `openapi: 3.0.3
info: { title: Strict, version: '1' }
paths:
  /things:
    get:
      operationId: listThings
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: object
                required: [tags]
                properties:
                  metadata:
                    type: object
                    required: [docker, tags]
                    properties: { docker: { type: string } }
                  count: { type: integer, minimum: 0, exclusiveMaximum: 10, items: { type: string } }
                additionalItems: false
`;

  it('loads a document with a required property it does not define; its validator works', async () => {
    const result = await ok(write({ 'main.yaml': DOC }));
    expect(result.spec.operations.map((o) => o.operationId)).toEqual(['listThings']);
    // At most one line at start (validators compile on first use, so usually none).
    expect(result.warnings.filter((w) => /strict mode/.test(w)).length).toBeLessThanOrEqual(1);
    const validate = result.spec.byId.get('listThings')?.responses.get('200')?.validateBody;
    takeStrictWarnings();
    expect(validate?.({ metadata: { docker: 'x', tags: 1 }, tags: [], count: 3 })).toBe(true);
    expect(validate?.({ metadata: { docker: 'x' }, tags: [] })).toBe(false);
    // What strict mode noticed while compiling comes back as one line, the first note and the count.
    expect(takeStrictWarnings()).toEqual([
      expect.stringMatching(/required property "tags" is not defined.*and \d+ more/),
    ]);
  });
});

describe('OpenAPI 3.2 documents (issue 33)', () => {
  const MAIN_32 = `openapi: 3.2.0
$self: https://example.com/openapi.yaml
info: { title: Search, version: '1' }
tags: [{ name: things, kind: nav }]
paths:
  /things:
    query:
      operationId: searchThings
      requestBody:
        content:
          application/json:
            schema: { $ref: './schemas/filter.yaml' }
      responses:
        '200': { description: ok }
`;

  it('loads, its files bundled although swagger-parser 12 refuses the version', async () => {
    const file = write({ 'main.yaml': MAIN_32, 'schemas/filter.yaml': 'type: object\n' });
    const result = await ok(file);
    expect(result.spec.document.openapi).toBe('3.2.0');
    expect(result.files).toEqual([file, path.join(path.dirname(file), 'schemas/filter.yaml')]);
  });

  it('is refused naming the place where it breaks the 3.2 schema', async () => {
    const broken = MAIN_32.replace('kind: nav', 'kind: 7');
    const result = await loadSpec(write({ 'main.yaml': broken, 'schemas/filter.yaml': 'type: object\n' }));
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.error).toMatch(/breaks the OpenAPI 3\.2 schema:\n {2}#\/tags\/0\/kind must be string/);
  });

  it('names a missing file it refers to, as for 3.1', async () => {
    const result = await loadSpec(write({ 'main.yaml': MAIN_32 }));
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.error).toMatch(/filter\.yaml[\s\S]*referenced at #\/paths\/~1things\/query/);
  });
});
