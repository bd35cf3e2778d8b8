/**
 * Which operation a method and a concrete path address: one matcher for the mock's route stage, the proxy's judge,
 * the runner and the pages. Literal text wins over a template at every depth (`/items/search` before
 * `/items/{id}`, `/a/b/{x}` before `/a/{y}/c`, whatever the document's order, OpenAPI 3.1 §4.8.8); a segment
 * mixing text and parameters (`{id}.json`, `{a}-{b}`, Google's `{name}:verb`) ranks between the two, more text
 * first. `HEAD` is answered wherever `GET` is (RFC 9110 §9.3.2). An unknown path is a 404; a known path and
 * another method a 405 with Allow, the methods of the best-ranked matching path only.
 *
 * Path keys that carry a query (AWS's `/#Action=AddRoleToDBCluster`, or `/?Action=…`) are reached both ways
 * clients send them: the key's text percent-encoded in the path (`/%23Action=AddRoleToDBCluster`, as Prism
 * sends it) and the path before `#`/`?` with that query (`/?Action=AddRoleToDBCluster`).
 *
 * The table is worked out once per document: a request for a literal path is one map lookup; a templated one is
 * tested only against the templates with as many segments, in rank order. Pure, no Node module.
 */
import { matchBasePath } from '../base-path';
import type { CompiledSpec, OperationSpec } from '../compile';
import { parseTemplate, splitQueryKey, type PathTemplate } from './path-template';

/** The operation and its path parameters as sent (still percent-encoded, in template order), or why there is none. */
export type Found = { operation: OperationSpec; rawParams: string[] };
export type Miss = { status: 404 } | { status: 405; allow: string[] };
export type PathMatch = Found | Miss;

interface Route {
  operation: OperationSpec;
  template: PathTemplate;
  /** Ranks compare segment by segment: literal, then mixed (more text first), then a bare parameter. */
  rank: string;
}

interface Table {
  /**
   * Method -> literal path -> the operation, for literal paths no query-carrying key shares. Each method is
   * there as written in the document (`get`) and in capitals (`GET`, as clients send it): a request finds its
   * operation with two lookups and no string built.
   */
  literal: Map<string, Map<string, Found>>;
  /** Templates (and literal keys that need the slow path) by segment count, best rank first. */
  bySegments: Map<number, Group>;
}

/**
 * The routes of one segment count, also split by their first segment (`items` of `/items/{id}`): a request is
 * tested against the routes whose first segment is its own, then those whose first segment is a parameter, not
 * against every template of the document (a literal first segment ranks before any other, so the order holds).
 */
interface Group {
  all: Route[];
  byFirst: Map<string, Route[]>;
  /** The routes whose first segment is no literal. */
  open: Route[];
}

const NONE: Route[] = [];

const tables = new WeakMap<CompiledSpec, Table>();

function rankOf(template: PathTemplate): string {
  const parts = template.segments.map((s) =>
    s.kind === 'literal'
      ? '0'
      : s.names.length === 1 && s.text === 0
        ? '2'
        : `1${String(9999 - s.text).padStart(4, '0')}`,
  );
  // A key carrying a query is more specific than the same path without one.
  return `${parts.join('.')}|${template.query ? 0 : 1}`;
}

function tableOf(spec: CompiledSpec): Table {
  const known = tables.get(spec);
  if (known) return known;
  const routes: Route[] = [];
  for (const operation of spec.operations) {
    const template = parseTemplate(operation.path);
    routes.push({ operation, template, rank: rankOf(template) });
    const keyed = splitQueryKey(operation.path);
    if (keyed) {
      const reached: PathTemplate = { ...parseTemplate(keyed.path), query: keyed.query };
      routes.push({ operation, template: reached, rank: rankOf(reached) });
    }
  }
  routes.sort((a, b) => (a.rank < b.rank ? -1 : a.rank > b.rank ? 1 : 0));
  const bySegments = new Map<number, Group>();
  for (const route of routes) {
    const n = route.template.segments.length;
    let group = bySegments.get(n);
    if (!group) bySegments.set(n, (group = { all: [], byFirst: new Map(), open: [] }));
    group.all.push(route);
    const first = route.template.segments[1];
    if (first?.kind !== 'literal') group.open.push(route);
    else group.byFirst.set(first.text, [...(group.byFirst.get(first.text) ?? []), route]);
  }
  const slowPaths = new Set(routes.filter((r) => r.template.query).map((r) => joinLiteral(r.template)));
  const literal = new Map<string, Map<string, Found>>();
  const byMethod = (method: string): Map<string, Found> => {
    let paths = literal.get(method);
    if (!paths) {
      literal.set(method, (paths = new Map()));
      literal.set(method.toUpperCase(), paths);
    }
    return paths;
  };
  for (const route of routes) {
    const path = joinLiteral(route.template);
    if (path === undefined || route.template.query || slowPaths.has(path)) continue;
    const paths = byMethod(route.operation.method);
    if (!paths.has(path)) paths.set(path, { operation: route.operation, rawParams: [] });
  }
  const heads = byMethod('head');
  for (const [path, found] of literal.get('get') ?? []) if (!heads.has(path)) heads.set(path, found);
  const table = { literal, bySegments };
  tables.set(spec, table);
  return table;
}

/** The path of an all-literal template, else undefined. */
function joinLiteral(template: PathTemplate): string | undefined {
  if (template.segments.some((s) => s.kind !== 'literal')) return undefined;
  return template.segments.map((s) => (s.kind === 'literal' ? s.text : '')).join('/');
}

function decoded(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

/** The raw parameters when every segment matches (literal text as sent or percent-encoded), else undefined. */
function matchSegments(template: PathTemplate, segments: readonly string[]): string[] | undefined {
  let params: string[] | undefined;
  for (let i = 0; i < segments.length; i++) {
    const want = template.segments[i];
    const raw = segments[i] ?? '';
    if (!want) return undefined;
    if (want.kind === 'literal') {
      if (raw !== want.text && !(raw.includes('%') && decoded(raw) === want.text)) return undefined;
      continue;
    }
    const m = want.pattern.exec(raw);
    if (!m) return undefined;
    (params ??= []).push(...m.slice(1));
  }
  return params ?? [];
}

/** Does the query string (without `?`) hold every pair the key requires? */
function queryHolds(required: ReadonlyArray<[string, string]>, query: string): boolean {
  const pairs = query.split('&').map((pair) => {
    const eq = pair.indexOf('=');
    const [name, value] = eq < 0 ? [pair, ''] : [pair.slice(0, eq), pair.slice(eq + 1)];
    return `${decoded(name.replace(/\+/g, ' ')) ?? name}=${decoded(value.replace(/\+/g, ' ')) ?? value}`;
  });
  return required.every(([name, value]) => pairs.includes(`${name}=${value}`));
}

/**
 * Pure: match `method path` (path as sent, without the query; `query` the raw query string, which only keys that
 * carry one read) against the operations under `basePath`.
 */
export function matchPath(
  spec: CompiledSpec,
  basePath: string,
  method: string,
  path: string,
  query = '',
): PathMatch {
  const under = matchBasePath(path, basePath);
  if (under === undefined) return { status: 404 };
  const rest = under || '/';
  const table = tableOf(spec);
  const literal = (table.literal.get(method) ?? table.literal.get(method.toLowerCase()))?.get(rest);
  if (literal) return literal;
  const wanted = method.toLowerCase();
  const segments = rest.split('/');
  let best: string | undefined;
  let head: Found | undefined;
  const allow: string[] = [];
  const group = table.bySegments.get(segments.length);
  const first = segments[1];
  // A first segment sent percent-encoded may match a literal as written or decoded: every route is tried.
  const lists = !group
    ? []
    : first === undefined || first.includes('%')
      ? [group.all]
      : [group.byFirst.get(first) ?? NONE, group.open];
  routes: for (const list of lists)
    for (const route of list) {
      if (best !== undefined && route.rank !== best) break routes;
      if (route.template.query && !queryHolds(route.template.query, query)) continue;
      const rawParams = matchSegments(route.template, segments);
      if (!rawParams) continue;
      best = route.rank;
      const { operation } = route;
      // The first of the best rank with the method is the answer: the rest are read only for a HEAD or a 405.
      if (operation.method === wanted) return { operation, rawParams };
      if (wanted === 'head' && operation.method === 'get') head ??= { operation, rawParams };
      if (!allow.includes(operation.method.toUpperCase())) allow.push(operation.method.toUpperCase());
    }
  if (head) return head;
  return allow.length ? { status: 405, allow } : { status: 404 };
}

/** The operation a request addresses, or undefined (for readers that need no 404/405 distinction). */
export function operationFor(
  spec: CompiledSpec,
  basePath: string,
  method: string,
  path: string,
  query = '',
): OperationSpec | undefined {
  const m = matchPath(spec, basePath, method, path, query);
  return 'operation' in m ? m.operation : undefined;
}
