/**
 * Operations under an item path of a known resource that are not one of its actions (`POST
 * /schedules/{id}/deactivate`, `GET /articles/{slug}/comments`): they address one item, so an id nobody created
 * is a 404 (issue 26.2); one whose success answer is the item's own schema answers the stored item (26.5). An
 * action whose last segment says what it does to the item changes it (issue 30): `deactivate` sets `active` to
 * false (or a `status` enum to `inactive`), `archive` sets `archived`, `publish` `published`, `close` `closed`,
 * `favorite` `favorited`, `un…` and `DELETE` undo; `x-mock: { set: {…} }` says what changes instead.
 */
import type { CompiledSpec, OperationSpec } from './compile';
import { innerSchema, wraps } from './envelope';
import type { Resource } from './resource-types';
import { fits } from './schema-fits';
import { objectShape, typesOf, type Schema } from './schema-shape';
import { isReadMethod } from './methods';
import { successOf } from './success';
import { isUnderItem, itemSkeleton, skeleton } from './resource-paths';
import { sameJson } from './json';

/** The resource an unbound operation addresses an item of, and whether it answers that item. */
export interface ItemScope {
  resource: Resource;
  /** The success answer's schema is the item's: answer the stored item. */
  echo: boolean;
  /** The success status the item is answered with. */
  status: number;
  /** Properties the action sets on the stored item (`{ active: false }`), by its name or `x-mock.set`. */
  change?: Record<string, unknown>;
}

/**
 * Operation id -> the item it addresses, for every operation under an item path that no action binds; each
 * change inferred from an action's name is one line of `notes`. A malformed `x-mock.set` is an error.
 */
export function itemScopes(
  spec: CompiledSpec,
  model: { resources: Resource[]; byOperation: ReadonlyMap<string, unknown> },
  notes: string[] = [],
): Map<string, ItemScope> | string {
  const out = new Map<string, ItemScope>();
  // The deepest item path first: an action on a comment (`/articles/{slug}/comments/{id}/like`) is the comment's.
  const addressed = model.resources
    .filter((r) => r.itemPath && r.itemParam && (r.idField || r.key))
    .sort((a, b) => (b.itemPath?.length ?? 0) - (a.itemPath?.length ?? 0));
  // Worked out once: a document of a thousand operations compares each with every item path.
  const skeletons = new Map(
    addressed.map((r) => [r, [skeleton(r.itemPath as string), itemSkeleton(r.itemPath as string)]] as const),
  );
  for (const op of spec.operations) {
    if (model.byOperation.has(op.operationId)) continue;
    // An operation opted out of state (`x-mock: examples`) keeps answering from its examples.
    const pathItem = (spec.document.paths ?? {})[op.path] as Record<string, unknown> | undefined;
    const xs = [op.extensions['x-mock'], pathItem?.['x-mock']];
    if (xs.some((x) => x === 'examples' || x === false)) continue;
    // By skeleton: `/users/{userId}/avatar` is under `/users/{id}`.
    const own = skeleton(op.path);
    const resource = addressed.find((r) => isUnderItem(own, skeletons.get(r) as [string, string]));
    if (!resource) continue;
    // An item action that documents no success still addresses the item: an unknown id is its 404.
    const success = successOf(op) ?? { status: 200, response: undefined };
    const successSchema = success.response?.schema;
    // The item itself, or the item in the resource's envelope (`{"article": {...}}`).
    const item =
      successSchema && wraps(successSchema, resource.envelope)
        ? innerSchema(successSchema, resource.envelope)
        : successSchema;
    const echo = item !== undefined && sameJson(item, resource.itemSchema);
    const where = `${op.method.toUpperCase()} ${op.path}`;
    const given = xs.map(setOf).find((x) => x !== undefined);
    let change: Record<string, unknown> | undefined;
    if (given !== undefined) {
      const bad = checkSet(given, resource, where);
      if (bad) return bad;
      change = Object.keys(given as object).length ? (given as Record<string, unknown>) : undefined;
    } else if (skeleton(op.path) !== skeleton(resource.itemPath as string)) {
      change = changeOf(op, resource);
      if (change)
        notes.push(
          `${where}: sets ${Object.entries(change)
            .map(([k, v]) => `${k} to ${JSON.stringify(v)}`)
            .join(', ')} on the ${resource.name} item (x-mock.set says otherwise)`,
        );
    }
    out.set(op.operationId, { resource, echo, status: success.status, change });
  }
  return out;
}

const setOf = (x: unknown): unknown =>
  typeof x === 'object' && x !== null && 'set' in x ? (x as { set: unknown }).set : undefined;

/** `x-mock.set`: an object of the item's own properties, each value one its schema takes. */
function checkSet(set: unknown, resource: Resource, where: string): string | undefined {
  if (typeof set !== 'object' || set === null || Array.isArray(set))
    return `${where}: x-mock.set must be an object of the item's properties and their values`;
  const props = objectShape(resource.itemSchema)?.properties ?? {};
  for (const [name, value] of Object.entries(set)) {
    if (!(name in props))
      return `${where}: x-mock.set names ${name}, which the ${resource.name} item has not`;
    if (!fits(value, props[name])) return `${where}: x-mock.set gives ${name} a value its schema refuses`;
  }
  return undefined;
}

/** What a verb makes true, and the opposite words (set false, or the enum value of the undo). */
const SPECIAL: Record<string, { on: string[]; off: string[] }> = {
  activate: { on: ['active', 'enabled', 'activated'], off: ['inactive', 'disabled', 'deactivated'] },
  enable: { on: ['enabled', 'active'], off: ['disabled', 'inactive'] },
  open: { on: ['open', 'opened'], off: ['closed'] },
  reopen: { on: ['open', 'opened', 'reopened'], off: ['closed'] },
  close: { on: ['closed'], off: ['open'] },
  publish: { on: ['published'], off: ['draft', 'unpublished'] },
  follow: { on: ['following', 'followed'], off: [] },
  hide: { on: ['hidden'], off: ['visible', 'shown'] },
  resume: { on: ['active', 'running', 'resumed'], off: ['paused'] },
  pause: { on: ['paused'], off: ['active', 'running'] },
};
const OPPOSITE: Record<string, string> = { deactivate: 'activate', disable: 'enable', show: 'hide' };

/** `archive` -> archived; `star` -> starred; `verify` -> verified; `cancel` -> cancelled and canceled. */
function participles(verb: string): string[] {
  if (verb.endsWith('e')) return [`${verb}d`];
  if (verb.endsWith('y')) return [`${verb.slice(0, -1)}ied`];
  const doubled = /[^aeiou][aeiou][bdgklmnprt]$/.test(verb) ? [`${verb}${verb.slice(-1)}ed`] : [];
  return [...doubled, `${verb}ed`];
}

/** The words an action's verb makes true and false, or undefined for a segment that is no such verb. */
function wordsOf(segment: string, method: string): { on: string[]; off: string[] } | undefined {
  let verb = segment.toLowerCase().replace(/[-_]/g, '');
  let undo = method === 'delete';
  if (OPPOSITE[verb]) {
    verb = OPPOSITE[verb] as string;
    undo = !undo;
  } else if (verb.startsWith('un') && !SPECIAL[verb]) {
    verb = verb.slice(2);
    undo = !undo;
  }
  if (!/^[a-z]{3,}$/.test(verb)) return undefined;
  const words = SPECIAL[verb] ?? { on: participles(verb), off: [] };
  return undo ? { on: words.off, off: words.on } : words;
}

const camel = (w: string) => `${w[0]?.toUpperCase() ?? ''}${w.slice(1)}`;

/**
 * The change an action's name makes to its item: a boolean property named by the verb's word (`active`,
 * `is_active`, `isActive`) set true, or its opposite (`disabled`) false; else a `status`/`state` string enum
 * given the verb's word. Undefined when the item has none of them (the action then leaves it as it is).
 */
function changeOf(op: OperationSpec, resource: Resource): Record<string, unknown> | undefined {
  if (isReadMethod(op.method)) return undefined;
  const last = op.path.split('/').filter(Boolean).pop() ?? '';
  if (last.startsWith('{')) return undefined;
  const words = wordsOf(last.replace(/^.*:/, ''), op.method);
  if (!words) return undefined;
  const props = objectShape(resource.itemSchema)?.properties ?? {};
  const names = Object.keys(props);
  const flag = (word: string) =>
    names.find(
      (n) =>
        [word, `is_${word}`, `is${camel(word)}`].includes(n) ||
        n.toLowerCase() === word ||
        n.toLowerCase() === `is${word}`,
    );
  const isBoolean = (n: string) => typesOf(props[n] as Schema).includes('boolean');
  for (const [list, value] of [
    [words.on, true],
    [words.off, false],
  ] as const)
    for (const word of list) {
      const name = flag(word);
      if (name && isBoolean(name)) return { [name]: value };
    }
  for (const name of names.filter((n) => /^(status|state)$/i.test(n))) {
    const values = (props[name] as { enum?: unknown[] }).enum ?? [];
    const hit = words.on.map((w) => values.find((v) => typeof v === 'string' && v.toLowerCase() === w));
    const value = hit.find((v) => v !== undefined);
    if (value !== undefined) return { [name]: value };
  }
  return undefined;
}
