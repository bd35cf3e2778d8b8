/** Pure: which merge patches (RFC 7396) a lifecycle sends, and what the item must look like after each. */
import type { Resource } from '../../spec/resources';
import { objectShape, typesOf, type Schema } from '../../spec/schema-shape';
import { generateValid } from './values';

export interface PatchPlan {
  patch: Record<string, unknown>;
  /** The item's fields after the patch, given those before. */
  expect(before: Record<string, unknown>): Record<string, unknown>;
  /** A problem when a member the patch removed (null) is still there. */
  absent(body: unknown): string | undefined;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * One patch changing one property the item already has (so a server that replaces instead of merging loses the
 * others), then, when the schema allows it, one that removes an optional property with null.
 */
export function mergePatchPlan(
  schema: Schema,
  resource: Resource,
  state: Record<string, unknown>,
  random: () => number,
  prefix: string,
): PatchPlan[] {
  const shape = objectShape(schema);
  if (!shape) return [];
  const required = objectShape(resource.itemSchema)?.required ?? new Set<string>();
  // The id names the item (the path's): a patch that changes it tests no merge, and a server may keep it.
  const writable = Object.entries(shape.properties).filter(
    ([name, p]) =>
      !(p as { readOnly?: unknown }).readOnly &&
      !resource.readOnly.includes(name) &&
      name !== resource.idField,
  );
  const plans: PatchPlan[] = [];
  // Change one property, leaving at least one other set property untouched.
  for (const [name, prop] of writable) {
    if (Object.keys(state).filter((k) => k !== name).length === 0) continue;
    let value: unknown;
    for (let i = 0; i < 6 && (value === undefined || same(value, state[name]) || value === null); i++)
      value = generateValid(prop, random, `${prefix}-${name}`);
    if (value === undefined || value === null || same(value, state[name])) continue;
    plans.push({
      patch: { [name]: value },
      expect: (before) => ({ ...before, [name]: value }),
      absent: () => undefined,
    });
    break;
  }
  const nullable = writable.find(
    ([name, p]) =>
      typesOf(p).includes('null') &&
      !required.has(name) &&
      state[name] !== undefined &&
      !(name in (plans[0]?.patch ?? {})),
  );
  if (nullable) {
    const [name] = nullable;
    plans.push({
      patch: { [name]: null },
      expect: (before) => Object.fromEntries(Object.entries(before).filter(([k]) => k !== name)),
      absent: (body) => {
        const v = (body as Record<string, unknown> | null)?.[name];
        return v === undefined || v === null
          ? undefined
          : `${name} is ${JSON.stringify(v)} after a patch with "${name}": null (RFC 7396 removes it)`;
      },
    });
  }
  return plans;
}
