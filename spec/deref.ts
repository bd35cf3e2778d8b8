/**
 * Pure: resolve a document's local `$ref`s (`#/components/...`) in memory: for the engine in a browser or a
 * test where the document is passed in as an object, and for the Node loader after swagger-parser has bundled
 * the files and validated the result. A `$ref` becomes the very object it points at, so recursive schemas stay recursive. Throws naming
 * the pointer when a `$ref` leads nowhere.
 */
type Json = unknown;

const unescape = (s: string): string => decodeURIComponent(s).replace(/~1/g, '/').replace(/~0/g, '~');

/** A copy of `document` with every local `$ref` replaced by its target. */
export function dereference<T>(document: T): T {
  const root = document as Json;
  const resolved = new Map<string, Json>();
  const copies = new Map<object, Json>();

  const target = (ref: string): Json => {
    if (!ref.startsWith('#')) throw new Error(`$ref ${ref}: only local references can be resolved in memory`);
    let node: Json = root;
    const followed = new Set<string>([ref]);
    for (const part of ref.slice(1).split('/').filter(Boolean).map(unescape)) {
      node = through(node, followed, ref);
      if (typeof node !== 'object' || node === null || !(part in node))
        throw new Error(`$ref ${ref} points at nothing`);
      node = (node as Record<string, Json>)[part];
    }
    return node;
  };

  // A pointer may pass through another $ref (a bundle points into what it moved once): follow it there.
  const through = (node: Json, followed: Set<string>, ref: string): Json => {
    let here = node;
    for (;;) {
      const inner = (here as { $ref?: unknown } | null)?.$ref;
      if (typeof here !== 'object' || here === null || typeof inner !== 'string') return here;
      if (followed.has(inner)) throw new Error(`$ref ${ref} loops through ${inner}`);
      followed.add(inner);
      here = target(inner);
    }
  };

  const walk = (node: Json): Json => {
    if (typeof node !== 'object' || node === null) return node;
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === 'string') {
      const done = resolved.get(ref);
      if (done !== undefined) return done;
      const raw = target(ref);
      if (typeof raw !== 'object' || raw === null) return raw;
      return walk(raw);
    }
    const seen = copies.get(node);
    if (seen !== undefined) return seen;
    const out: Json = Array.isArray(node) ? [] : {};
    copies.set(node, out);
    for (const [k, v] of Object.entries(node)) (out as Record<string, Json>)[k] = walk(v);
    return out;
  };
  // Components first, so each `$ref` to one becomes that component's copy.
  const components = (root as { components?: Record<string, Record<string, Json>> }).components ?? {};
  for (const [kind, entries] of Object.entries(components)) {
    for (const name of Object.keys(entries ?? {})) {
      const ref = `#/components/${kind}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      const raw = target(ref);
      if (typeof raw === 'object' && raw !== null && !('$ref' in raw)) resolved.set(ref, walk(raw));
    }
  }
  return walk(root) as T;
}
