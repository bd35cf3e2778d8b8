/**
 * Values the server named in its earlier answers, reused for path parameters (as Schemathesis learns from
 * responses): a read addressed by a name the document does not list (`/countries/{country}`) is sent with a name
 * the list's answer gave (`GET /countries` → `[{"country": "Chile"}, …]`), or with an item of a list of bare
 * names answered at the path above it (`GET /gov` → `["Chile", …]` for `/gov/{country}`). Bounded by design:
 * each answer is walked to a fixed number of nodes and the pool keeps a fixed number of records.
 */
import type { OperationSpec } from '../../spec/load';
import type { ParamSpec } from '../../spec/compile';
import { coerceParam } from '../../spec/compile';

type Scalar = string | number;

/** The bounds of the pool; the defaults keep it well under a megabyte. */
export interface SeenLimits {
  /** JSON nodes walked per answer. */
  nodes: number;
  /** Objects kept (their scalar properties) per answer, and over the run. */
  recordsPerAnswer: number;
  records: number;
  /** Bare values kept per list answer. */
  listValues: number;
}

const DEFAULTS: SeenLimits = { nodes: 2000, recordsPerAnswer: 40, records: 1500, listValues: 20 };
const MAX_TEXT = 200;

export interface SeenValues {
  /** An answer of the operation at `template`: its JSON (a 2xx's; undefined otherwise) is read for names. */
  observe(template: string, json: unknown): void;
  /** Whether an answer of `template` was seen. */
  answered(template: string): boolean;
  /** Texts for `op`'s path parameters taken from earlier answers, only those each parameter accepts. */
  pathValues(op: OperationSpec): Record<string, string>;
}

/** A path template without its trailing slash (`/gov/` lists what `/gov/{country}` reads). */
const bare = (template: string): string => template.replace(/\/+$/, '');

/** A name reduced for comparison: lower case, letters and digits only. */
const norm = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/** The names a parameter may go by in an answer: itself and its singular (`countries` → `country`). */
export function namesOf(param: string): string[] {
  const n = norm(param);
  const singular = n.endsWith('ies')
    ? `${n.slice(0, -3)}y`
    : /(ss|x|ch|sh)es$/.test(n)
      ? n.slice(0, -2)
      : n.endsWith('s') && !n.endsWith('ss')
        ? n.slice(0, -1)
        : n;
  return singular === n ? [n] : [n, singular];
}

const scalar = (v: unknown): v is Scalar =>
  (typeof v === 'string' && v !== '' && v.length <= MAX_TEXT) ||
  (typeof v === 'number' && Number.isFinite(v));

const accepts = (p: ParamSpec, text: string): boolean => p.validate(coerceParam(p.schema, text)) === true;

interface SeenRecord {
  /** The template of the operation whose answer held it. */
  template: string;
  values: Map<string, Scalar>;
}

/** The objects of an answer with their scalar properties, breadth first, within the limits. */
function recordsOf(json: unknown, room: number, limits: SeenLimits): Array<Map<string, Scalar>> {
  const out: Array<Map<string, Scalar>> = [];
  const queue: unknown[] = [json];
  const most = Math.min(room, limits.recordsPerAnswer);
  for (let seen = 0; queue.length > 0 && seen < limits.nodes && out.length < most; seen += 1) {
    const node = queue.shift();
    if (Array.isArray(node)) queue.push(...node.slice(0, limits.nodes - seen));
    else if (node !== null && typeof node === 'object') {
      const record = new Map<string, Scalar>();
      for (const [k, v] of Object.entries(node as Record<string, unknown>))
        if (scalar(v)) record.set(norm(k), v);
        else if (v !== null && typeof v === 'object') queue.push(v);
      if (record.size > 0) out.push(record);
    }
  }
  return out;
}

/**
 * The texts of `op`'s path parameters from the one record naming most of them: the answers of the reads above
 * `op` first (a list names its own items), then the others.
 */
function fromRecords(records: readonly SeenRecord[], op: OperationSpec): Record<string, string> {
  const params = op.pathParamSpecs;
  const own = records.filter((r) => op.path.startsWith(`${r.template}/`));
  let best: Record<string, string> = {};
  for (const record of [...own, ...records.filter((r) => !own.includes(r))]) {
    const found: Record<string, string> = {};
    for (const p of params) {
      const v = namesOf(p.name)
        .map((n) => record.values.get(n))
        .find((x) => x !== undefined);
      if (v !== undefined && accepts(p, String(v))) found[p.name] = String(v);
    }
    if (Object.keys(found).length > Object.keys(best).length) best = found;
    if (Object.keys(best).length === params.length) break;
  }
  return best;
}

/** A new, empty pool. */
export function seenValues(limits: SeenLimits = DEFAULTS): SeenValues {
  const records: SeenRecord[] = [];
  const lists = new Map<string, Scalar[]>();
  const answered = new Set<string>();
  return {
    observe(answeredAt, json) {
      const template = bare(answeredAt);
      answered.add(template);
      if (Array.isArray(json) && json.length > 0 && json.every(scalar)) {
        if (!lists.has(template)) lists.set(template, json.slice(0, limits.listValues));
      } else if (json !== null && typeof json === 'object')
        for (const values of recordsOf(json, limits.records - records.length, limits))
          records.push({ template, values });
    },
    answered: (template) => answered.has(bare(template)),
    pathValues(op) {
      const values = fromRecords(records, op);
      // A bare list answered at the path above a parameter names that parameter's values.
      for (const p of op.pathParamSpecs) {
        const above = op.path.slice(0, op.path.indexOf(`/{${p.name}}`));
        const listed = lists
          .get(above)
          ?.map(String)
          .find((t) => accepts(p, t));
        if (listed !== undefined) values[p.name] = listed;
      }
      return values;
    },
  };
}
