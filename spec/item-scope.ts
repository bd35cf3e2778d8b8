/**
 * Operations under an item path of a known resource that are not one of its actions (`POST
 * /schedules/{id}/deactivate`, `GET /articles/{slug}/comments`): they address one item, so an id nobody created
 * is a 404 (issue 26.2); one whose success answer is the item's own schema answers the stored item (26.5).
 */
import type { CompiledSpec, OperationSpec } from './compile';
import { innerSchema, wraps } from './envelope';
import type { Resource } from './resource-types';
import type { Schema } from './schema-shape';

/** The resource an unbound operation addresses an item of, and whether it answers that item. */
export interface ItemScope {
  resource: Resource;
  /** The success answer's schema is the item's: answer the stored item. */
  echo: boolean;
  /** The success status the item is answered with. */
  status: number;
}

function successOf(op: OperationSpec): { status: number; schema?: Schema } | undefined {
  const statuses = [...op.responses.keys()].filter((s) => /^2\d\d$/.test(s)).sort();
  const first = statuses[0];
  if (first === undefined) return undefined;
  return { status: Number(first), schema: op.responses.get(first)?.schema };
}

/** One schema object (the loader keeps a shared component one object), else equal JSON. */
function sameSchema(a: Schema, b: Schema): boolean {
  if (a === b) return true;
  try {
    return JSON.stringify(a) === JSON.stringify(b);
  } catch {
    return false; // a circular schema that is not the same object
  }
}

/** Operation id -> the item it addresses, for every operation under an item path that no action binds. */
export function itemScopes(
  spec: CompiledSpec,
  model: { resources: Resource[]; byOperation: ReadonlyMap<string, unknown> },
): Map<string, ItemScope> {
  const out = new Map<string, ItemScope>();
  const addressed = model.resources.filter((r) => r.itemPath && r.itemParam && r.idField);
  for (const op of spec.operations) {
    if (model.byOperation.has(op.operationId)) continue;
    // An operation opted out of state (`x-mock: examples`) keeps answering from its examples.
    const pathItem = (spec.document.paths ?? {})[op.path] as Record<string, unknown> | undefined;
    if ([op.extensions['x-mock'], pathItem?.['x-mock']].some((x) => x === 'examples' || x === false))
      continue;
    const resource = addressed.find((r) => op.path === r.itemPath || op.path.startsWith(`${r.itemPath}/`));
    const success = successOf(op);
    if (!resource || !success) continue;
    // The item itself, or the item in the resource's envelope (`{"article": {...}}`).
    const item =
      success.schema && wraps(success.schema, resource.envelope)
        ? innerSchema(success.schema, resource.envelope)
        : success.schema;
    const echo = item !== undefined && sameSchema(item, resource.itemSchema);
    out.set(op.operationId, { resource, echo, status: success.status });
  }
  return out;
}
