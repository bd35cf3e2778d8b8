/**
 * Pure: a value generated for one branch of a `oneOf` made to match that branch alone (issue 40). A value built
 * from a branch's required properties often fits a sibling too (`{ "id": "x" }` is a Cat and a Dog), which a
 * validator refuses. In order: the discriminator's property set to a mapping key (or the branch's `const`);
 * the branch's optional properties added, or one the value has left out; a property a sibling describes, which the branch leaves free, given
 * a value the sibling refuses (`null` first); for a number, a fraction (`oneOf: [number, integer]`). Each try is
 * judged with ./schema-fits.ts against the whole schema.
 */
import { fits } from './schema-fits';
import { isObject } from './json';

type Json = Record<string, unknown>;

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
  /** The other branches. */
  siblings: readonly unknown[];
  /** The schema holding the `oneOf` (its discriminator), its `allOf` merged. */
  s: Json;
  /** The whole schema the value must fit. */
  schema: Json;
  /** The branch generated with its optional properties. */
  fuller: () => unknown;
}

/** The value changed to fit the whole schema with its branch alone, or undefined when no try does. */
export function exclusiveTo({ value, branch, siblings, s, schema, fuller }: OneOfTry): unknown {
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
  return undefined;
}
