/**
 * Pure: the key of a resource's items, as its item path names it (spec/resources.ts asks; spec/resource-key.ts
 * reads the fields). A top-level property (`idField`), or JSON pointers (`key`): one nested field
 * (`{name}` -> `/metadata/name`), or one field per parameter of an item path with two of its own
 * (`/repos/{owner}/{repo}` -> `/owner/login` and `/name`).
 */
import type { KeyPart } from './resource-key';
import { isScalar, namingInstead, nestedPointer, wordsOf } from './resource-key';
import { objectShape, readOnlyProperties, typesOf, type ObjectShape, type Schema } from './schema-shape';

export interface KeyDecision {
  /** A top-level property. */
  idField?: string;
  /** Pointers, where the key is nested or composite. */
  key?: KeyPart[];
}

export interface KeyInput {
  shape: ObjectShape;
  /** The item path's own parameters (`[owner, repo]` of `/repos/{owner}/{repo}`), last the item's. */
  params: string[];
  paramSchemas: ReadonlyMap<string, Schema | undefined>;
  request: ObjectShape | null;
  /** `x-mock.id`: a property, a pointer, or one pointer per parameter. */
  override?: string | string[];
}

/** The key an item path names; `{}` when the document gives no way to address one item. */
export function keyDecision(input: KeyInput): KeyDecision {
  const { override, params } = input;
  if (override !== undefined) return fromOverride(override, params);
  if (params.length >= 2) {
    const parts = params.map((param, i) => ({
      param,
      pointer:
        namedPointer(input.shape, param) ?? (i === params.length - 1 ? single(input, param) : undefined),
    }));
    if (parts.every((p): p is KeyPart => p.pointer !== undefined)) return { key: parts };
  }
  const last = params[params.length - 1];
  const found = single(input, last);
  if (found === undefined) return {};
  const top = /^\/[^/]+$/.test(found) ? unescape(found.slice(1)) : undefined;
  return top !== undefined ? { idField: top } : { key: [{ pointer: found, param: last ?? '' }] };
}

const unescape = (s: string): string => s.replace(/~1/g, '/').replace(/~0/g, '~');
const escape = (s: string): string => s.replace(/~/g, '~0').replace(/\//g, '~1');

function fromOverride(override: string | string[], params: string[]): KeyDecision {
  const list = typeof override === 'string' ? [override] : override;
  if (list.length === 1 && !list[0]?.slice(1).includes('/')) {
    const only = list[0] as string;
    return { idField: only.startsWith('/') ? unescape(only.slice(1)) : only };
  }
  // One pointer per own parameter of the item path, the last pointer the item's own parameter.
  const from = params.slice(Math.max(0, params.length - list.length));
  return { key: list.map((pointer, i) => ({ pointer, param: from[i] ?? from[from.length - 1] ?? '' })) };
}

/** A field the parameter names by its own name: top-level (or but for its case), else nested. */
export function namedPointer(shape: ObjectShape, param: string): string | undefined {
  const p = shape.properties[param];
  if (p !== undefined && isScalar(p)) return `/${escape(param)}`;
  const same = Object.keys(shape.properties).filter(
    (k) => k.toLowerCase() === param.toLowerCase() && isScalar(shape.properties[k]),
  );
  if (same.length === 1) return `/${escape(same[0] as string)}`;
  return nestedPointer(shape, param);
}

const ORDINALS = new Set(['index', 'idx', 'num', 'no', 'nr', 'seq']);

/** The pointer one parameter names, or the item's usual key when it names none. */
function single(input: KeyInput, itemParam: string | undefined): string | undefined {
  const { shape, request } = input;
  // An object or a list is never the id (DigitalOcean's `floating_ip` wrapper beside the `{floating_ip}` path);
  // through allOf too (AWS's `appBundle: { allOf: [{ $ref: AppBundle }, { description }] }`).
  const props = Object.fromEntries(Object.entries(shape.properties).filter(([, p]) => isScalar(p)));
  const ptr = (name: string | undefined) => (name === undefined ? undefined : `/${escape(name)}`);
  // The path names the key: `{name}` is `name` (Docker's `Name`: but for its case).
  if (itemParam && props[itemParam]) return ptr(itemParam);
  const sameBut = itemParam && Object.keys(props).filter((p) => p.toLowerCase() === itemParam.toLowerCase());
  if (sameBut && sameBut.length === 1) return ptr(sameBut[0]);
  // `{issue_number}` is `number` and `{floating_ip}` `ip`, before a bare `id`, as the parameter is not id-like.
  const tail = itemParam === undefined ? undefined : wordsOf(itemParam).pop();
  const idLike = tail === undefined || /^(id|uuid|guid|key|sid|pk)$/.test(tail);
  if (tail && !idLike && props[tail]) return ptr(tail);
  // `{index}` of an issue is its `number` (Gitea's): a word for the ordinal the item holds under another name.
  const ordinal = tail && ORDINALS.has(tail) && props.number ? 'number' : undefined;
  if (ordinal) return ptr(ordinal);
  // `{name}` is `/metadata/name` where the item has no `name` of its own.
  const nested = itemParam && !idLike ? nestedPointer(shape, itemParam) : undefined;
  if (nested) return nested;
  if (itemParam && idLike && props.id) return ptr('id');
  const readOnly = readOnlyProperties(shape).filter((p) => p in props);
  const usual = usualKey(props, shape, readOnly, tail, request);
  // `{repo}` is "the repository's name": not the integer `id` where the item has a name.
  const isInteger =
    usual !== undefined && typesOf(props[usual]).some((t) => t === 'integer' || t === 'number');
  const naming =
    isInteger && itemParam && !idLike ? namingInstead(shape, input.paramSchemas.get(itemParam)) : undefined;
  return ptr(naming ?? usual);
}

function usualKey(
  props: Record<string, Schema>,
  shape: ObjectShape,
  readOnly: string[],
  tail: string | undefined,
  request: ObjectShape | null,
): string | undefined {
  if (readOnly.length === 1) return readOnly[0];
  if (props.id) return 'id';
  if (tail && props[tail]) return tail;
  if (request) {
    const lacking = [...shape.required].filter((p) => p in props && !(p in request.properties));
    if (lacking.length === 1) return lacking[0];
  }
  if (readOnly.includes('id')) return 'id';
  return undefined;
}

/** The schema at a pointer of an item schema (through objects), or undefined. */
export function schemaAt(item: Schema, pointer: string): Schema | undefined {
  let at: Schema | undefined = item;
  for (const raw of pointer.slice(1).split('/')) at = objectShape(at)?.properties[unescape(raw)];
  return at;
}
