/**
 * Pure: which of the document's operations a run covers, from `--operation ID`, `--tag TAG` (the document's
 * operation tags) and `--path GLOB` (`*` within one path segment, `**` across segments). Each flag repeats;
 * operations must match every kind of flag given (one of its values). No flag: every operation.
 */
import type { LoadedSpec, OperationSpec } from '../../spec/load';
import { operationObject } from '../../spec/methods';

export interface OperationFilter {
  operations?: string[];
  tags?: string[];
  paths?: string[];
}

export type OperationSelection = { ok: true; ids: ReadonlySet<string> | null } | { ok: false; error: string };

/** The tags the document gives `op`. */
export function tagsOf(spec: LoadedSpec, op: OperationSpec): string[] {
  const operation = operationObject(spec.document, op.path, op.method);
  return Array.isArray(operation?.tags) ? operation.tags.filter((t) => typeof t === 'string') : [];
}

/** `/repos/*\/issues*` as a RegExp over a path template (`**` may cross `/`). */
export function pathGlob(glob: string): RegExp {
  const body = glob
    .split(/(\*\*|\*)/)
    .map((part) =>
      part === '**' ? '.*' : part === '*' ? '[^/]*' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('');
  return new RegExp(`^${body}$`);
}

const sample = (values: Iterable<string>, n = 8): string => {
  const all = [...values];
  return `${all.slice(0, n).join(', ')}${all.length > n ? `, … (${all.length} in all)` : ''}`;
};

/** The selected operationIds (null: no filter given), or a usage error naming what matched nothing. */
export function selectOperations(spec: LoadedSpec, filter: OperationFilter): OperationSelection {
  const { operations = [], tags = [], paths = [] } = filter;
  if (operations.length + tags.length + paths.length === 0) return { ok: true, ids: null };
  const unknown = operations.find((id) => !spec.byId.has(id));
  if (unknown)
    return {
      ok: false,
      error: `--operation ${unknown}: no such operationId (the document has ${sample(spec.byId.keys())})`,
    };
  const documentTags = new Set(spec.operations.flatMap((op) => tagsOf(spec, op)));
  const unknownTag = tags.find((t) => !documentTags.has(t));
  if (unknownTag)
    return {
      ok: false,
      error: `--tag ${unknownTag}: no operation has this tag (${documentTags.size ? `tags: ${sample([...documentTags].sort())}` : 'the document tags none'})`,
    };
  const globs = paths.map((p) => ({ p, re: pathGlob(p) }));
  const unmatched = globs.find(({ re }) => !spec.operations.some((op) => re.test(op.path)));
  if (unmatched) return { ok: false, error: `--path ${unmatched.p}: matches no path of the document` };
  const ids = new Set(
    spec.operations
      .filter(
        (op) =>
          (operations.length === 0 || operations.includes(op.operationId)) &&
          (tags.length === 0 || tagsOf(spec, op).some((t) => tags.includes(t))) &&
          (globs.length === 0 || globs.some(({ re }) => re.test(op.path))),
      )
      .map((op) => op.operationId),
  );
  if (ids.size === 0)
    return { ok: false, error: 'the --operation, --tag and --path filters together select no operation' };
  return { ok: true, ids };
}
