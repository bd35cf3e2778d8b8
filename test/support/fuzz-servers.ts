/**
 * Hand-written servers for fixtures/specs/fuzz-club-31.yaml (not our engine, not ajv): a faithful one and one
 * variant per fault the --fuzz phase must catch. Each is an in-process fetch handler.
 */
export const FUZZ_KEY = 'fuzz-server-key-0001';

export const FAULTS = [
  'exclusive-as-inclusive',
  'inclusive-as-exclusive',
  'min-length',
  'max-length',
  'minimum',
  'max-items',
  'enum',
  'email',
  'convert-type',
  'additional-properties',
  'malformed-json-500',
  'non-integer-id-500',
  'array-as-first',
  'store-refused',
  'no-key-create-stored',
  'delete-ignored',
  'id-reused',
  'replace-not-stored',
  'limit-unchecked',
] as const;
export type Fault = (typeof FAULTS)[number];

type Item = Record<string, unknown>;
const FIELDS = ['name', 'email', 'age', 'score', 'tags', 'plan'];

const json = (status: number, body?: unknown): Response =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
  });
const problem = (status: number, message: string) => json(status, { error: 'invalid', message });

/** What is wrong with a member body as this server (with its fault) reads it. */
function memberProblem(b: Item, fault?: Fault): string | undefined {
  if (typeof b.name !== 'string') return 'name must be a string';
  // JSON Schema counts code points (an emoji is one), not UTF-16 units: the fuzzer found this one.
  const length = [...b.name].length;
  if (length < 2 && fault !== 'min-length') return 'name too short';
  if (length > 20 && fault !== 'max-length') return 'name too long';
  if (typeof b.email !== 'string') return 'email must be a string';
  if (fault !== 'email' && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(b.email)) return 'email is not an email';
  if (fault === 'convert-type' && typeof b.age === 'string' && /^\d+$/.test(b.age)) b.age = Number(b.age);
  const age = b.age;
  if (typeof age !== 'number' || !Number.isInteger(age)) return 'age must be an integer';
  if (fault === 'exclusive-as-inclusive' ? age < 0 : age <= 0) return 'age must be > 0';
  if (fault === 'inclusive-as-exclusive' ? age >= 130 : age > 130) return 'age must be <= 130';
  if ('score' in b) {
    if (typeof b.score !== 'number') return 'score must be a number';
    if (b.score < 0 && fault !== 'minimum') return 'score must be >= 0';
    if (b.score >= 10) return 'score must be < 10';
  }
  if ('tags' in b) {
    const tags = b.tags;
    if (!Array.isArray(tags)) return 'tags must be an array';
    if (tags.length > 3 && fault !== 'max-items') return 'at most 3 tags';
    const fits = (t: unknown) => typeof t === 'string' && [...t].length >= 1 && [...t].length <= 10;
    if (!tags.every(fits)) return 'bad tag';
  }
  if ('plan' in b && fault !== 'enum' && !['free', 'pro', 'team'].includes(b.plan as string))
    return 'plan is free, pro or team';
  if ('plan' in b && typeof b.plan !== 'string') return 'plan must be a string';
  const extra = Object.keys(b).find((k) => !FIELDS.includes(k));
  return extra && fault !== 'additional-properties' ? `${extra} is not allowed` : undefined;
}

async function readBody(req: Request, fault?: Fault): Promise<Item | Response> {
  let body: unknown;
  try {
    body = JSON.parse(await req.text());
  } catch {
    return fault === 'malformed-json-500' ? problem(500, 'oops') : problem(400, 'not JSON');
  }
  if (fault === 'array-as-first' && Array.isArray(body)) body = body[0];
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return problem(400, 'not an object');
  return body as Item;
}

/** The club's server under `/v1`, with `fault` when given. */
export function clubServer(fault?: Fault): (req: Request) => Promise<Response> {
  const members = new Map<number, Item>();
  let next = 1;
  return async (req) => {
    const url = new URL(req.url);
    const p = url.pathname.replace(/^\/v1/, '');
    if (req.headers.get('authorization') !== `Bearer ${FUZZ_KEY}`) {
      if (fault === 'no-key-create-stored' && req.method === 'POST') {
        const body = await readBody(req);
        if (!(body instanceof Response)) members.set(next, { ...body, id: next++ });
      }
      return problem(401, 'bad key');
    }
    // The fault: the next id is one past the highest stored, so deleting the newest frees its id again.
    if (fault === 'id-reused') next = Math.max(0, ...members.keys()) + 1;
    const [, id] = /^\/members(?:\/([^/]*))?$/.exec(p) ?? [];
    if (!/^\/members(\/[^/]*)?$/.test(p)) return problem(404, `no ${p}`);
    if (id === undefined) {
      if (req.method === 'GET') {
        const limit = url.searchParams.get('limit');
        const inRange = (n: number) => n >= 1 && (n <= 100 || fault === 'limit-unchecked');
        if (limit !== null && !(/^\d+$/.test(limit) && inRange(Number(limit))))
          return problem(400, 'limit is 1 to 100');
        return json(200, [...members.values()].slice(0, limit === null ? 20 : Number(limit)));
      }
      if (req.method !== 'POST') return problem(405, req.method);
      const body = await readBody(req, fault);
      if (body instanceof Response) return body;
      const made = { ...body, id: next++ };
      if (fault === 'store-refused') members.set(made.id, made);
      const bad = memberProblem(body, fault);
      if (bad) return problem(400, bad);
      members.set(made.id, { ...body, id: made.id });
      return json(201, members.get(made.id));
    }
    if (!/^\d+$/.test(id))
      return fault === 'non-integer-id-500' ? problem(500, 'oops') : problem(400, 'bad id');
    const found = members.get(Number(id));
    if (!found) return problem(404, `no member ${id}`);
    if (req.method === 'GET') return json(200, found);
    if (req.method === 'DELETE') {
      // A body the operation does not document: refused as the house decides (docs/petstore-decisions.md).
      if (req.headers.get('content-type') && (await req.text()) !== '') return problem(415, 'no body here');
      if (fault !== 'delete-ignored') members.delete(Number(id));
      return json(204);
    }
    if (req.method !== 'PUT') return problem(405, req.method);
    const body = await readBody(req, fault);
    if (body instanceof Response) return body;
    const bad = memberProblem(body, fault);
    if (bad) return problem(400, bad);
    const replaced = { ...body, id: found.id };
    if (fault !== 'replace-not-stored') members.set(Number(id), replaced);
    return json(200, replaced);
  };
}
