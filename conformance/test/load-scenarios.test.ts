import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_SCENARIOS_DIR } from '../run';
import { loadScenarios } from '../load/load-scenarios';

const SCHEMAS = new Set(['Category', 'Error', 'NewCategory']);
let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scenarios-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const write = (name: string, text: string) => fs.writeFileSync(path.join(dir, name), text);
const step = `steps: [{ name: s, request: { method: GET, path: /categories } }]`;

describe('loadScenarios', () => {
  it('loads the shipped scenarios', async () => {
    const result = await loadScenarios(DEFAULT_SCENARIOS_DIR, SCHEMAS);
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.scenarios.length).toBeGreaterThanOrEqual(10);
  });

  it('reads YAML and JSON, and a scenario may declare a new rule', async () => {
    write('a.yaml', `scenarios:\n  - { id: one, rule: categories.create-201, ${step} }\n`);
    write(
      'b.json',
      JSON.stringify({
        scenarios: [
          {
            id: 'two',
            rule: 'qa.list-ok',
            title: 'The list answers',
            source: '§4',
            kind: 'contract',
            steps: [{ name: 's', request: { method: 'GET', path: '/categories' }, expect: { status: 200 } }],
          },
        ],
      }),
    );
    const result = await loadScenarios(dir, SCHEMAS);
    expect(result).toMatchObject({
      ok: true,
      scenarios: [{ id: 'one' }, { id: 'two' }],
      rules: [{ id: 'qa.list-ok', kind: 'contract', source: '§4' }],
    });
  });

  it.each([
    ['bad.yaml', 'scenarios: [', /bad\.yaml \(line \d+\)/],
    ['bad.json', '{', /bad\.json: /],
    [
      'bad.yaml',
      'scenarios:\n  - { id: x, rule: categories.create-201, steps: [{ name: s, request: { method: GET } }] }\n',
      /bad\.yaml: \/scenarios\/0\/steps\/0\/request\/path is required/,
    ],
    [
      'bad.yaml',
      `scenarios:\n  - { id: x, rule: categories.create-201, ${step.replace('GET', 'FETCH')} }\n`,
      /bad\.yaml: \/scenarios\/0\/steps\/0\/request\/method must be equal to one of the allowed values/,
    ],
    [
      'bad.yaml',
      `scenarios:\n  - { id: x, rule: no.such-rule, ${step} }\n`,
      /\/scenarios\/0\/rule "no\.such-rule"/,
    ],
    [
      'bad.yaml',
      'scenarios:\n  - { id: x, rule: categories.create-201, steps: [{ name: s, request: { method: GET, path: /x }, expect: { schema: Pet } }] }\n',
      /\/scenarios\/0\/steps\/0\/expect\/schema "Pet" is not a schema of the spec/,
    ],
  ])('refuses %s with an error naming the file and the spot', async (name, text, message) => {
    write(name, text);
    const result = await loadScenarios(dir, SCHEMAS);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error).toContain(path.join(dir, name));
      expect(result.error).toMatch(message);
    }
  });
});
