/**
 * Pure: the paths of one resource that do not share a skeleton. An item path with no create of its own
 * (`/repos/{owner}/{repo}`, `/projects/{project_gid}`) joins the create whose answer is the same item schema,
 * or whose collection it names and whose item has a field for each of its parameters (`POST /user/repos`); a
 * collection path of the same items elsewhere (`/workspaces/{workspace_gid}/projects`) becomes another create
 * and list of that resource, setting and filtering the fields its parameters name; a list of every parent's
 * items (`/gadgets` beside `/namespaces/{namespace}/gadgets`) lists them all.
 */
import type { OperationSpec } from './compile';
import { singular } from './envelope';
import type { Action, PathField, Resource } from './resource-types';
import { isParam, paramName, plural, segments } from './resource-paths';
import { parentField } from './resource-key';
import { namedPointer } from './resource-id';
import { objectShape, type Schema } from './schema-shape';
import { sameJson } from './json';

export interface Candidate {
  collectionPath: string;
  /** Whether `collectionPath` is a documented path of the collection (not only the parent of its item path). */
  documented?: boolean;
  itemPath?: string;
  /** `POST` on the item path, bound as its update once the item schema is known (`updateOf`). */
  posts: { op: OperationSpec; summary: string }[];
  name?: string;
  idOverride?: string | string[];
  /** `x-mock.parent`: whether a parent nobody created is a 404. */
  parentRequired?: boolean;
  /** Its create says it also updates the item it names (`UPSERT_WORDS`). */
  upsert?: boolean;
  /** Its item path lives elsewhere than its collection (joined here). */
  joined?: boolean;
  ops: Map<Action, OperationSpec>;
}

export { sameJson };

/**
 * The same item schema, or two views of one item: most of the smaller's properties (at least 4 in 5, at least
 * three) are the larger's (GitHub's `repository`, `full-repository` and `minimal-repository`).
 */
export function alikeItems(a: unknown, b: unknown): boolean {
  if (sameJson(a, b)) return true;
  const x = objectShape(a);
  const y = objectShape(b);
  if (!x || !y) return false;
  const [small, large] = [Object.keys(x.properties), Object.keys(y.properties)].sort(
    (m, n) => m.length - n.length,
  ) as [string[], string[]];
  const shared = small.filter((p) => large.includes(p)).length;
  return small.length >= 3 && shared >= 0.8 * small.length;
}

/** The last literal segment of a path (`repos` of `/repos/{owner}/{repo}`). */
const lastLiteral = (path: string): string | undefined =>
  segments(path)
    .filter((s) => !isParam(s))
    .pop();

/** `/user/repos` and `/repos/{owner}/{repo}` name the same things (or one in its singular). */
function namesMatch(collectionPath: string, itemPath: string): boolean {
  const a = lastLiteral(collectionPath);
  const b = lastLiteral(itemPath);
  return a !== undefined && b !== undefined && [b, plural(b), singular(b)].includes(a);
}

/** The parameters at the end of an item path (`[owner, repo]`): the item's key. */
export function ownParams(itemPath: string): string[] {
  const out: string[] = [];
  for (const s of segments(itemPath).reverse()) {
    if (!isParam(s)) break;
    out.unshift(paramName(s));
  }
  return out;
}

/** Every parameter but the item's own names a field of the item (`owner` -> `/owner/login`). */
function fieldsNamed(itemPath: string, item: Schema | undefined): boolean {
  const shape = objectShape(item);
  return (
    shape !== null &&
    ownParams(itemPath)
      .slice(0, -1)
      .every((p) => namedPointer(shape, p) !== undefined)
  );
}

/**
 * Join each item path that no create shares a skeleton with to the create of its items; mutates `candidates`
 * (the item path's candidate is merged into the create's and removed).
 */
export function joinItemPaths(
  candidates: Map<string, Candidate>,
  itemOf: (c: Candidate) => Schema | undefined,
): void {
  for (const [key, orphan] of [...candidates]) {
    const itemPath = orphan.itemPath;
    if (!itemPath || orphan.ops.has('create') || orphan.ops.has('list') || orphan.name) continue;
    const item = itemOf(orphan);
    if (!item) continue;
    const creators = [...candidates.values()].filter(
      (c) => c !== orphan && c.ops.has('create') && !c.itemPath,
    );
    const named = creators.filter((c) => namesMatch(c.collectionPath, itemPath));
    const both = named.filter((c) => sameJson(itemOf(c), item));
    const byFields = named.filter((c) => fieldsNamed(itemPath, itemOf(c)));
    // The names must agree: a create of other things answering the same schema is not this item's create.
    // Of several (`/user/repos` and `/orgs/{org}/repos`), the one under no parameter is the home; the others
    // become other ways in (aliasBindings).
    // (The same holds where the create answers a shorter schema than the item path: GitHub's `repository` at
    // `/user/repos` and `/orgs/{org}/repos`, its `full-repository` at `/repos/{owner}/{repo}`.)
    const topLevel = (both.length > 0 ? both : byFields).filter(
      (c) => !segments(c.collectionPath).some(isParam),
    );
    const pick = [both, byFields, topLevel].find((list) => list.length === 1)?.[0];
    if (!pick) continue;
    pick.itemPath = itemPath;
    pick.joined = true;
    for (const [action, op] of orphan.ops) if (!pick.ops.has(action)) pick.ops.set(action, op);
    pick.posts.push(...orphan.posts);
    pick.idOverride ??= orphan.idOverride;
    candidates.delete(key);
  }
}

/** The fields of `item` that the parameters of `path` name, by depth; undefined when one names none. */
export function fieldsOf(path: string, item: Schema): PathField[] | undefined {
  const out: PathField[] = [];
  for (const [depth, s] of segments(path).entries()) {
    if (!isParam(s)) continue;
    const pointer = parentField(item, paramName(s));
    if (!pointer) return undefined;
    out.push({ pointer, depth });
  }
  return out;
}

/**
 * Where no field is named after a collection path's parameters (`/orgs/{org}/repos` of items keyed by
 * `/owner/login` + `/name`): its parameters set the leading parts of a composite key, in order, the last part
 * (the item's own name) coming from the body. Undefined where the key has no room for them.
 */
function keyPartsOf(path: string, r: Resource): PathField[] | undefined {
  const depths = [...segments(path).entries()].filter(([, s]) => isParam(s)).map(([depth]) => depth);
  const key = r.key ?? [];
  if (depths.length === 0 || depths.length > key.length - 1) return undefined;
  return depths.map((depth, i) => ({ pointer: key[i]?.pointer ?? '', depth }));
}

/** The resources by each name their collection's last literal answers to (itself, plural, singular), in order. */
const lastNames = new WeakMap<readonly Resource[], { size: number; index: Map<string, Resource[]> }>();

function byLastName(resources: readonly Resource[]): Map<string, Resource[]> {
  const known = lastNames.get(resources);
  if (known && known.size === resources.length) return known.index;
  const index = new Map<string, Resource[]>();
  for (const r of resources) {
    const b = lastLiteral(r.collectionPath);
    if (b === undefined) continue;
    for (const name of new Set([b, plural(b), singular(b)])) {
      const list = index.get(name);
      if (list) list.push(r);
      else index.set(name, [r]);
    }
  }
  lastNames.set(resources, { size: resources.length, index });
  return index;
}

/**
 * The one resource whose items another collection path (`/workspaces/{workspace_gid}/projects`) holds too: the
 * same item schema, named alike. Where several are, the one with an item path: a sub-collection of the same items
 * with none (`/teams/{team_gid}/projects`) is another way in, not where the records are found.
 */
export function homeOf(
  collectionPath: string,
  item: Schema | undefined,
  resources: readonly Resource[],
): Resource | undefined {
  const named = byLastName(resources).get(lastLiteral(collectionPath) ?? '') ?? [];
  const matches = named.filter((r) => r.collectionPath !== collectionPath && alikeItems(r.itemSchema, item));
  const homes = matches.filter((r) => r.itemPath !== undefined);
  return matches.length === 1 ? matches[0] : homes.length === 1 ? homes[0] : undefined;
}

/**
 * The resource with an item path whose items a nested collection path (`/orgs/{org}/repos`) holds, where that path
 * can be another way in to it (its parameters name fields, or a composite key's leading parts): such a path is
 * not a sub-collection with records of its own, even under another resource's item (`/orgs/{org}`).
 */
export function aliasHome(
  collectionPath: string,
  item: Schema | undefined,
  resources: readonly Resource[],
): Resource | undefined {
  const r = homeOf(collectionPath, item, resources);
  if (!r?.itemPath || r.scope || !segments(collectionPath).some(isParam)) return undefined;
  return (fieldsOf(collectionPath, r.itemSchema) ?? keyPartsOf(collectionPath, r)) ? r : undefined;
}

/**
 * Does a collection path name only parents of the resource's items, where their collection path has them
 * (`/repos/{owner}/{repo}/issues/comments` of `/repos/{owner}/{repo}/issues/{issue_number}/comments`)?
 */
function namesAncestors(d: Candidate, r: Resource): boolean {
  const mine = segments(d.collectionPath);
  const theirs = segments(r.collectionPath);
  const last = mine.map((s) => isParam(s)).lastIndexOf(true);
  return (
    last >= 0 &&
    theirs.length > mine.length &&
    mine.slice(0, last + 1).every((s, i) => {
      const t = theirs[i];
      return t !== undefined && (isParam(s) ? isParam(t) : s === t);
    })
  );
}

/** Another collection path of a built resource's items: its create and list, with the fields its path sets. */
export function aliasBindings(
  dropped: readonly Candidate[],
  resources: readonly Resource[],
  itemOf: (c: Candidate) => Schema | undefined,
): { op: OperationSpec; resource: Resource; action: Action; fields?: PathField[]; everywhere?: boolean }[] {
  const out: ReturnType<typeof aliasBindings> = [];
  for (const d of dropped) {
    if (d.itemPath) continue;
    const r = homeOf(d.collectionPath, itemOf(d), resources);
    if (!r) continue;
    const nested = segments(d.collectionPath).some(isParam);
    const list = d.ops.get('list');
    if (!nested) {
      if (list && r.scope && r.operations.list && !d.ops.has('create'))
        out.push({ op: list, resource: r, action: 'list', everywhere: true });
      continue;
    }
    const fields = fieldsOf(d.collectionPath, r.itemSchema) ?? keyPartsOf(d.collectionPath, r);
    // Items kept per parent, listed under the parents' own parents (`/repos/{owner}/{repo}/issues/comments`).
    if (list && r.operations.list && !d.ops.has('create') && (r.scope || r.parent) && namesAncestors(d, r))
      out.push({ op: list, resource: r, action: 'list', everywhere: true });
    if (!fields || r.scope) continue;
    const create = d.ops.get('create');
    if (create?.requestBody && r.operations.create)
      out.push({ op: create, resource: r, action: 'create', fields });
    if (list && r.operations.list) out.push({ op: list, resource: r, action: 'list', fields });
  }
  return out;
}
