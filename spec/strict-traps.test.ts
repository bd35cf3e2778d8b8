/**
 * Issue 21, point 2: a valid document is never refused for an ajv strict-mode rule. The fixture holds one trap
 * per schema (GitHub's strictRequired case, strictTypes, strictTuples, a union type, `then` without `if`,
 * unknown keywords and formats, a pattern only a non-unicode RegExp accepts); it loads with one strict line.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { takeStrictWarnings } from './ajv';
import { loadSpec } from './load';
import { createFetchHandler } from '../mock/adapters/fetch';

const FILE = path.join(__dirname, '..', 'fixtures', 'specs', 'strict-traps-31.yaml');

it('loads, with at most one warning line for the strict-mode rules', async () => {
  const result = await loadSpec(FILE);
  if (!result.ok) throw new Error(result.error);
  expect(result.spec.operations.map((o) => o.operationId)).toEqual(['createTrap']);
  // Validators compile on first use (issue 22): at start at most one line, usually none.
  expect(result.warnings.filter((w) => /strict mode|unicode/.test(w)).length).toBeLessThanOrEqual(1);
  takeStrictWarnings();
  result.spec.operations[0]?.requestBody?.validate({});
  const strict = takeStrictWarnings();
  expect(strict).toHaveLength(1);
  expect(strict[0]).toMatch(/required property "tags" is not defined.*\(and \d+ more\)/);
});

it('still validates what it can check, the non-unicode pattern included', async () => {
  const document = parse(fs.readFileSync(FILE, 'utf8')) as never;
  const handler = await createFetchHandler({ document });
  const post = (body: unknown) =>
    handler(
      new Request('http://127.0.0.1/traps', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      }),
    );
  expect((await post({ name: 'a', tags: ['x'], code: 'a-b.c' })).status).toBe(201);
  const refused = await post({ name: 'a', tags: ['x'], code: 'a b' });
  expect(refused.status).toBe(400);
  expect(JSON.stringify(await refused.json())).toMatch(/pattern/);
  expect((await post({ name: 'a', tags: ['x'], count: 'many' })).status).toBe(400);
});
