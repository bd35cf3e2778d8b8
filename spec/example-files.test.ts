/**
 * Issue 26.8: examples kept in files (`example: { $ref: file }`, the same file used twice) load instead of being
 * refused; recursive schemas across files (a many-way oneOf referring to itself) load once and validate finitely.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadSpec } from './load';

const MATCHERS = path.join(__dirname, '..', 'fixtures', 'specs', 'matchers', 'matchers-30.yaml');

function writeTree(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'example-files-'));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

const MAIN = `openapi: 3.0.3
info: { title: ex, version: '1' }
paths:
  /things:
    post:
      operationId: createThing
      requestBody:
        content:
          application/json:
            schema: { $ref: './schemas.yaml#/Thing' }
            example: { $ref: './examples/thing.json' }
      responses:
        '201':
          description: ok
          content:
            application/json:
              schema: { $ref: './schemas.yaml#/Thing' }
              example: { $ref: './examples/thing.json' }
`;

describe('examples in files', () => {
  it('load, the same file used twice included, and answer with the file content', async () => {
    const dir = writeTree({
      'api.yaml': MAIN,
      'schemas.yaml': 'Thing:\n  type: object\n  properties: { name: { type: string } }\n',
      'examples/thing.json': '{ "name": "from a file" }',
    });
    const result = await loadSpec(path.join(dir, 'api.yaml'));
    if (!result.ok) throw new Error(result.error);
    const op = result.spec.operations[0];
    expect(op?.requestBody?.example).toEqual({ name: 'from a file' });
    expect(op?.responses.get('201')?.example).toEqual({ name: 'from a file' });
  });
});

describe('recursive schemas across files', () => {
  // Fails on main at this commit (`Maximum call stack size exceeded` while compiling): the second half of
  // 26.8 belongs to the helper restructuring spec/compile.ts. Turn `it.failing` into `it` when it lands.
  it.failing('load once, with the matcher example from its file', async () => {
    const result = await loadSpec(MATCHERS);
    if (!result.ok) throw new Error(result.error);
    const body = result.spec.operations[0]?.requestBody;
    expect(body?.example).toEqual({ and: [{ equals: 'GET' }, { not: { contains: 'admin' } }] });
    expect(body?.validate({ or: [{ not: { not: { present: true } } }] })).toBe(true);
    expect(body?.validate({ or: [{ nope: 1 }] })).toBe(false);
  });
});
