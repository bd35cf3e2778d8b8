/**
 * Pure: resolve a document's local `$ref`s (`#/components/...`) in memory: for the engine in a browser or a
 * test where the document is passed in as an object, and for the Node loader after swagger-parser has bundled
 * the files and validated the result. A `$ref` becomes the very object it points at, so shared schemas stay
 * shared and recursive schemas stay recursive (a graph with cycles). Throws naming the pointer when a `$ref`
 * leads nowhere or only to itself.
 *
 * Two passes, neither recursing along `$ref`s: copy the tree (as deep as the document is written), then point
 * each `$ref` at its target in the copy. Stripe's description chains a thousand components; following each
 * `$ref` where it is met recursed a thousand deep (`Maximum call stack size exceeded`).
 */
import { isObjectOrArray } from './json';
type Json = unknown;
type Holder = Record<string, Json>;

const unescape = (s: string): string => decodeURIComponent(s).replace(/~1/g, '/').replace(/~0/g, '~');

/**
 * A copy of `document` with every local `$ref` replaced by its target; `inPlace`: `document` itself, changed (for
 * a tree nobody else holds and that holds no object twice, one just parsed from JSON: no second copy of a 13 MB
 * document in memory).
 */
export function dereference<T>(document: T, options: { inPlace?: boolean } = {}): T {
  const inPlace = options.inPlace === true;
  const copies = new Map<object, Json>();
  const refs: { holder: Holder; key: string; ref: string }[] = [];
  /** The copied `$ref` objects, not yet pointed at their targets. */
  const placeholders = new Map<object, string>();

  const copy = (node: Json): Json => {
    if (!isObjectOrArray(node)) return node;
    // In place, the tree is one just parsed from JSON (no object twice): nothing to remember per node.
    const seen = inPlace ? undefined : copies.get(node);
    if (seen !== undefined) return seen;
    const out: Holder = inPlace ? node : ((Array.isArray(node) ? [] : {}) as Holder);
    if (!inPlace) copies.set(node, out);
    if (typeof node.$ref === 'string') placeholders.set(out, node.$ref);
    for (const [k, v] of Object.entries(node)) {
      const c = copy(v);
      if (!inPlace) out[k] = c;
      if (isObjectOrArray(c) && placeholders.has(c))
        refs.push({ holder: out, key: k, ref: placeholders.get(c) ?? '' });
    }
    return out;
  };
  const root = copy(document);

  /** The target of `ref` in the copy, through any `$ref` on the way (a bundle points into what it moved). */
  const target = (ref: string, followed: Set<string>): Json => {
    if (!ref.startsWith('#')) throw new Error(`$ref ${ref}: only local references can be resolved in memory`);
    let node: Json = root;
    for (const part of ref.slice(1).split('/').filter(Boolean).map(unescape)) {
      node = through(node, followed, ref);
      if (!isObjectOrArray(node) || !(part in node)) throw new Error(`$ref ${ref} points at nothing`);
      node = node[part];
    }
    return through(node, followed, ref);
  };
  const through = (node: Json, followed: Set<string>, ref: string): Json => {
    const inner = isObjectOrArray(node) ? placeholders.get(node) : undefined;
    if (inner === undefined) return node;
    if (followed.has(inner)) throw new Error(`$ref ${ref} loops through ${inner}`);
    followed.add(inner);
    return target(inner, followed);
  };

  const resolved = new Map<string, Json>();
  for (const { holder, key, ref } of refs) {
    let value = resolved.get(ref);
    if (value === undefined) resolved.set(ref, (value = target(ref, new Set([ref]))));
    holder[key] = value;
  }
  return (
    isObjectOrArray(root) && placeholders.has(root) ? target(placeholders.get(root) ?? '', new Set()) : root
  ) as T;
}
