/**
 * Pure: a value generated for one branch of a `oneOf` made to match that branch alone (issue 40). A value built
 * from a branch's required properties often fits a sibling too (`{ "id": "x" }` is a Cat and a Dog), which a
 * validator refuses. In order: the discriminator's property set to a mapping key (or the branch's `const`);
 * the branch's optional properties added, or one the value has left out; a property a sibling describes, which the branch leaves free, given
 * a value the sibling refuses (`null` first); for a number, a fraction (`oneOf: [number, integer]`). Each try is
 * judged with ./schema-fits.ts against the whole schema. When one change is not enough (a value that fits five
 * siblings, as Vonage's report records that share a base and differ in a few open fields), siblings are ruled
 * out one after another, each change keeping the value in its branch; a branch contained in a sibling (every
 * value of it is one of the sibling's too) cannot be made exclusive, and the caller tries the next branch.
 */
import { fits } from './schema-fits';
import { isObject } from './json';

type Json = Record<string, unknown>;
type Merge = (s: Json) => Json;

/** Values of every JSON type: one of them is refused by a sibling's property schema. */
const ODD_VALUES: unknown[] = [null, 0, true, '', [], {}];

/** The mapping keys (and the names a discriminator may take) worth trying for the discriminator property. */
function discriminatorTries(s: Json, branch: Json): Array<[string, unknown]> {
  const d = isObject(s.discriminator) ? s.discriminator : undefined;
  const name = typeof d?.propertyName === 'string' ? d.propertyName : undefined;
  if (!name) return [];
  const own = isObject(branch.properties) ? branch.properties[name] : undefined;
  const values: unknown[] = [];
  if (isObject(own) && own.const !== undefined) values.push(own.const);
  if (isObject(own) && Array.isArray(own.enum)) values.push(...own.enum);
  if (isObject(d?.mapping)) values.push(...Object.keys(d.mapping));
  if (typeof branch.title === 'string') values.push(branch.title);
  return values.map((v) => [name, v]);
}

/** Properties siblings describe that the branch does not: a value there the sibling refuses rules it out. */
function siblingTries(value: Json, branch: Json, siblings: readonly unknown[]): Array<[string, unknown]> {
  if (branch.additionalProperties === false) return [];
  const own = isObject(branch.properties) ? branch.properties : {};
  const tries: Array<[string, unknown]> = [];
  for (const sibling of siblings) {
    if (!isObject(sibling) || !fits(value, sibling) || !isObject(sibling.properties)) continue;
    for (const [name, p] of Object.entries(sibling.properties))
      if (!(name in own) && !(name in value))
        for (const odd of ODD_VALUES) if (!fits(odd, p)) tries.push([name, odd]);
  }
  return tries;
}

export interface OneOfTry {
  /** The value generated for the branch. */
  value: unknown;
  /** The branch, its `allOf` merged. */
  branch: Json;
  /** The other branches, their `allOf` merged. */
  siblings: readonly unknown[];
  /** The branch with what the schema says beside its `oneOf`, merged: every change keeps the value fitting it. */
  own?: Json;
  /** The schema holding the `oneOf` (its discriminator), its `allOf` merged. */
  s: Json;
  /** The whole schema the value must fit. */
  schema: Json;
  /** `allOf` merged (./sample.ts's): the schemas one level down are compared merged. */
  merge?: Merge;
  /** The branch generated with its optional properties. */
  fuller: () => unknown;
}

/** The value changed to fit the whole schema with its branch alone, or undefined when no try does. */
export function exclusiveTo(t: OneOfTry): unknown {
  const { value, branch, siblings, s, schema, fuller } = t;
  const full = fuller();
  if (full !== undefined && fits(full, schema)) return full;
  // `oneOf: [number, integer]`: 0 is both, 0.5 the number alone.
  if (typeof value === 'number')
    for (const n of [value + 0.5, value + 1, value - 0.5, value - 1]) if (fits(n, schema)) return n;
  // Branches that differ only in what they require (`oneOf: [{ required: [a] }, { required: [b] }]`): leave out
  // the optional properties the value has, one at a time.
  if (isObject(value))
    for (const name of Object.keys(value)) {
      const without = { ...value };
      delete without[name];
      if (fits(without, schema)) return without;
    }
  for (const base of [value, full]) {
    if (!isObject(base)) continue;
    for (const [name, v] of [...discriminatorTries(s, branch), ...siblingTries(base, branch, siblings)]) {
      const tried = { ...base, [name]: v };
      if (fits(tried, schema)) return tried;
    }
  }
  for (const base of [value, full]) {
    const ruled = isObject(base) ? ruledOut(base, t) : undefined;
    if (ruled !== undefined) return ruled;
  }
  return undefined;
}

/** Values a property may take to tell two schemas apart: the JSON types, then the branch's own enum. */
const valuesFor = (mine: unknown): unknown[] =>
  isObject(mine) && Array.isArray(mine.enum) ? [...ODD_VALUES, ...(mine.enum as unknown[])] : ODD_VALUES;

/** How deep a change may go (a property of an item of a property: Vonage's report records). */
const APART_DEPTH = 3;

/**
 * Values near `value` that `mine` takes and `theirs` refuses: a property `theirs` requires left out, one it
 * describes set otherwise, the same one level down (a property's value, an array's first item); a scalar
 * replaced by a value of another type or of `mine`'s enum. Candidates only: the caller judges each.
 */
function apart(value: unknown, mine: Json, theirs: Json, merge: Merge, depth: number): unknown[] {
  if (depth > APART_DEPTH) return [];
  // An object or a list keeps what it holds: only a part of it changes.
  if (isObject(value)) return objectsApart(value, mine, theirs, merge, depth);
  if (Array.isArray(value) && value.length > 0 && isObject(mine.items) && isObject(theirs.items))
    return apart(value[0], merge(mine.items), merge(theirs.items), merge, depth + 1).map((item) => [
      item,
      ...value.slice(1),
    ]);
  return valuesFor(mine).filter((v) => fits(v, mine) && !fits(v, theirs));
}

function objectsApart(value: Json, mine: Json, theirs: Json, merge: Merge, depth: number): Json[] {
  const required = new Set(Array.isArray(mine.required) ? mine.required : []);
  const own = isObject(mine.properties) ? mine.properties : {};
  const free = mine.additionalProperties === false ? false : (mine.additionalProperties ?? {});
  const out: Json[] = [];
  for (const name of Array.isArray(theirs.required) ? (theirs.required as string[]) : [])
    if (name in value && !required.has(name)) {
      const without = { ...value };
      delete without[name];
      out.push(without);
    }
  for (const [name, t] of Object.entries(isObject(theirs.properties) ? theirs.properties : {})) {
    const m = own[name] ?? free;
    if (!isObject(m) || !isObject(t)) continue;
    const near = name in value ? apart(value[name], merge(m), merge(t), merge, depth + 1) : [];
    for (const v of [...near, ...valuesFor(m)])
      if (fits(v, m) && !fits(v, t)) out.push({ ...value, [name]: v });
  }
  return out;
}

/** The siblings one after another ruled out, each change keeping the value in its branch; else undefined. */
function ruledOut(value: Json, { siblings, schema, own, branch, merge }: OneOfTry): unknown {
  const home = own ?? branch;
  const matching = (v: unknown) => siblings.filter((x) => fits(v, x)).length;
  let current: unknown = value;
  for (let step = 0; step <= siblings.length; step++) {
    if (fits(current, schema)) return current;
    const count = matching(current);
    const sibling = siblings.find((x) => isObject(x) && fits(current, x));
    if (!isObject(sibling) || !fits(current, home) || !merge) return undefined;
    const next = apart(current, home, sibling, merge, 0).find((c) => fits(c, home) && matching(c) < count);
    if (next === undefined) return undefined;
    current = next;
  }
  return undefined;
}
