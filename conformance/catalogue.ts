/**
 * A document's own rules, as data: each file of a catalogue folder declares rules and the operations each needs.
 * A rule is listed only when the document has all of them, so a run on another document never names it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { createAjv } from '../spec/ajv';
import { formatAjvErrors } from '../spec/load';
import type { Rule, RuleKind } from './types';

/** One declared rule: a catalogue rule plus where it is listed and the operationIds it needs. */
export interface CatalogueRule extends Rule {
  /** Listed after this rule id (the rules after it in the file follow it); absent on the first: at the end. */
  after?: string;
  operations: string[];
}

/** One catalogue file: a heading for `--help` and its rules. */
export interface CatalogueFile {
  title: string;
  rules: CatalogueRule[];
}

interface RawFile {
  title: string;
  rules: Array<Omit<CatalogueRule, 'kind'> & { kind: RuleKind }>;
}

const FILE_SCHEMA = {
  type: 'object',
  required: ['title', 'rules'],
  additionalProperties: false,
  properties: {
    title: { type: 'string', minLength: 1 },
    rules: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['id', 'title', 'source', 'kind', 'tags', 'operations'],
        additionalProperties: false,
        properties: {
          id: { type: 'string', pattern: '^[a-z0-9][a-z0-9.-]*$' },
          title: { type: 'string', minLength: 1 },
          source: { type: 'string', pattern: '^§[0-9]+' },
          kind: { enum: ['contract', 'assumption'] },
          tags: { type: 'array', items: { type: 'string' } },
          after: { type: 'string' },
          operations: { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 } },
        },
      },
    },
  },
} as const;

const validateFile = createAjv().compile<RawFile>(FILE_SCHEMA);

/** Every `*.yaml`, `*.yml` or `*.json` file of `dir`, sorted; a missing folder is an empty catalogue. Throws on a bad file. */
export function readCatalogue(dir: string): CatalogueFile[] {
  if (!fs.existsSync(dir)) return [];
  const names = fs
    .readdirSync(dir)
    .filter((n) => /\.(ya?ml|json)$/.test(n))
    .sort();
  return names.map((name) => {
    const file = path.join(dir, name);
    const text = fs.readFileSync(file, 'utf8');
    const value: unknown = file.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
    if (!validateFile(value))
      throw new Error(`bad catalogue file ${file}: ${formatAjvErrors(validateFile.errors, 'file')}`);
    return value;
  });
}

/** Pure: `base` with `extra` placed by their `after` (ids kept unique: a repeated id is an error). */
export function mergeRules(base: readonly Rule[], extra: readonly CatalogueRule[]): Rule[] {
  const out: Rule[] = [...base];
  let previous: string | undefined;
  for (const { after, id, title, source, kind, tags } of extra) {
    const rule: Rule = { id, title, source, kind, tags };
    if (out.some((r) => r.id === rule.id)) throw new Error(`catalogue rule ${rule.id} is declared twice`);
    const anchor = out.findIndex((r) => r.id === (after ?? previous));
    out.splice(anchor === -1 ? out.length : anchor + 1, 0, rule);
    previous = rule.id;
  }
  return out;
}

/** Pure: whether the document (its operationIds) has every operation `rule` needs. */
export function appliesTo(rule: CatalogueRule, operationIds: ReadonlySet<string>): boolean {
  return rule.operations.every((id) => operationIds.has(id));
}
