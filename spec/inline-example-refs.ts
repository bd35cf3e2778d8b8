/**
 * Issue 26.8: the bundler writes the second use of an example file as an internal `$ref` to the first
 * (`#/paths/…/example`), and upgrading 3.0 to 3.1 moves `example` (to `examples`), leaving that pointer
 * dangling: `Missing $ref pointer … Token "example" does not exist`. Examples are data, not schemas, so each
 * internal `$ref` that points into an `example` or an Example's `value` is replaced by a copy of what it names.
 */
import { isObjectOrArray } from './json';
type Json = Record<string, unknown>;

const unescape = (s: string) => decodeURIComponent(s).replace(/~1/g, '/').replace(/~0/g, '~');

/** The value at a `#/…` pointer of `document`, or undefined. */
function resolve(document: Json, pointer: string): unknown {
  let node: unknown = document;
  for (const raw of pointer.slice(2).split('/')) {
    if (!isObjectOrArray(node)) return undefined;
    node = node[unescape(raw)];
  }
  return node;
}

/** Does the pointer name an example (`…/example…`, `…/examples/<name>/value…`)? */
function pointsIntoExample(pointer: string): boolean {
  const segs = pointer.slice(2).split('/').map(unescape);
  return segs.some((s, i) => s === 'example' || (s === 'value' && segs[i - 2] === 'examples'));
}

/** Replace, in place, every internal `$ref` into an example with a copy of its target; returns how many. */
export function inlineExampleRefs(document: Json): number {
  let count = 0;
  const seen = new WeakSet<object>();
  const visit = (node: unknown, depth: number): void => {
    if (!isObjectOrArray(node) || seen.has(node) || depth > 200) return;
    seen.add(node);
    for (const [key, child] of Object.entries(node)) {
      const ref = isObjectOrArray(child) ? child.$ref : undefined;
      if (typeof ref === 'string' && ref.startsWith('#/') && pointsIntoExample(ref)) {
        const target = resolve(document, ref);
        if (target !== undefined) {
          node[key] = structuredClone(target);
          count++;
          continue;
        }
      }
      visit(child, depth + 1);
    }
  };
  visit(document, 0);
  return count;
}
