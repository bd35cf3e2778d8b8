/** Read every scenario file of a folder, parse it (YAML or JSON) and validate it against its own schema. */
import fs from 'node:fs/promises';
import path from 'node:path';
import { parse as parseYaml, YAMLParseError } from 'yaml';
import { createAjv } from '../../spec/ajv';
import { formatAjvErrors } from '../../spec/load';
import { catalogueFor, findRule } from '../rules';
import type { Rule } from '../types';
import { SCENARIO_FILE_SCHEMA, type Scenario, type ScenarioFile } from './scenario-schema';

export type ScenariosResult =
  { ok: true; scenarios: Scenario[]; rules: Rule[] } | { ok: false; error: string };

// Compiled once per process: the schema is ours and fixed.
const validateFile = createAjv().compile<ScenarioFile>(SCENARIO_FILE_SCHEMA);

/**
 * Load `*.yaml`, `*.yml` and `*.json` under `dir` (sorted); the first bad file is an error naming it and where.
 * With `operationIds`, a scenario of a catalogue rule the document does not get (its operations are absent) is
 * left out, and any other scenario naming an operation the document lacks is not checked against the document's
 * schemas: it is skipped when run, with that reason.
 */
export async function loadScenarios(
  dir: string,
  schemaNames: ReadonlySet<string>,
  operationIds?: ReadonlySet<string>,
): Promise<ScenariosResult> {
  let names: string[];
  try {
    names = (await fs.readdir(dir)).filter((n) => /\.(ya?ml|json)$/.test(n)).sort();
  } catch (err) {
    return { ok: false, error: `cannot read scenario folder ${dir}: ${(err as Error).message}` };
  }
  const scenarios: Scenario[] = [];
  const rules: Rule[] = [];
  const withheld = operationIds ? catalogueFor(operationIds).withheld : new Set<string>();
  for (const name of names) {
    const file = path.join(dir, name);
    const parsed = await parseFile(file);
    if (!parsed.ok) return parsed;
    const problem = checkFile(parsed.value, schemaNames, rules, scenarios, operationIds);
    if (problem) return { ok: false, error: `bad scenario file ${file}: ${problem}` };
  }
  return { ok: true, scenarios: scenarios.filter((s) => !withheld.has(s.rule)), rules };
}

async function parseFile(file: string): Promise<{ ok: true; value: unknown } | { ok: false; error: string }> {
  try {
    const text = await fs.readFile(file, 'utf8');
    return { ok: true, value: file.endsWith('.json') ? JSON.parse(text) : parseYaml(text) };
  } catch (err) {
    const where = err instanceof YAMLParseError && err.linePos ? ` (line ${err.linePos[0].line})` : '';
    return {
      ok: false,
      error: `bad scenario file ${file}${where}: ${(err as Error).message.split('\n')[0]}`,
    };
  }
}

/** The first problem of one parsed file, or undefined; adds its scenarios and new rules to the lists. */
function checkFile(
  value: unknown,
  schemaNames: ReadonlySet<string>,
  rules: Rule[],
  into: Scenario[],
  operationIds: ReadonlySet<string> | undefined,
) {
  if (!validateFile(value)) return formatAjvErrors(validateFile.errors, 'file');
  for (const [i, scenario] of value.scenarios.entries()) {
    const at = `/scenarios/${i}`;
    if (into.some((s) => s.id === scenario.id)) return `${at}/id "${scenario.id}" is used twice`;
    const rule = findRule(scenario.rule, rules);
    if (!rule) {
      if (!scenario.title || !scenario.source || !scenario.kind)
        return `${at}/rule "${scenario.rule}" is not a known rule; a new rule needs title, source and kind`;
      rules.push({
        id: scenario.rule,
        title: scenario.title,
        source: scenario.source,
        kind: scenario.kind,
        tags: scenario.tags ?? ['scenario'],
      });
    }
    const absent = operationIds
      ? scenario.steps.some((s) => s.request.operation && !operationIds.has(s.request.operation))
      : false;
    for (const [j, step] of scenario.steps.entries()) {
      const schema = absent ? undefined : step.expect?.schema;
      if (schema && !schemaNames.has(schema))
        return `${at}/steps/${j}/expect/schema "${schema}" is not a schema of the spec`;
    }
    into.push(scenario);
  }
  return undefined;
}
