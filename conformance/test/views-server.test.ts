/**
 * Issue 21, "done when": a server that follows OpenAPI's readOnly/writeOnly rules passes the runner. Written by
 * hand for fixtures/specs/wild/library-31.yaml (not our engine): creates and replaces without the readOnly id,
 * a required writeOnly password taken and never answered. Two faulty variants fail: one that echoes the
 * password, one that still demands the readOnly id in a create.
 */
import path from 'node:path';
import { runConformance } from '../index';

const SPEC = path.join(__dirname, '..', '..', 'fixtures', 'specs', 'wild', 'library-31.yaml');
const KEY = 'views-server-key-0001';
type Item = Record<string, unknown>;
type Fault = 'echo-password' | 'require-id';

function librarySketch(fault?: Fault): (req: Request) => Promise<Response> {
  const books = new Map<string, Item>();
  const users = new Map<string, Item>();
  let next = 1;
  const json = (status: number, body?: unknown): Response =>
    new Response(body === undefined ? null : JSON.stringify(body), {
      status,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    });
  const problem = (status: number, error: string, message: string) => json(status, { error, message });
  const shownUser = (u: Item): Item => {
    if (fault === 'echo-password') return u;
    const rest: Item = { ...u };
    delete rest.password;
    if (rest.profile) {
      const shown: Item = { ...(rest.profile as Item) };
      delete shown.recoveryCode;
      rest.profile = shown;
    }
    return rest;
  };
  const bookOk = (b: Item): string | undefined => {
    if ('id' in b || 'createdAt' in b) return 'readOnly properties must not be sent';
    if (fault === 'require-id') return '/id is required';
    if (typeof b.title !== 'string' || b.title.length < 1 || b.title.length > 200) return '/title is invalid';
    if ('author' in b && typeof b.author !== 'string') return '/author must be string';
    const extra = Object.keys(b).find((k) => !['title', 'author'].includes(k));
    return extra ? `/${extra} is not allowed` : undefined;
  };
  const userOk = (u: Item): string | undefined =>
    typeof u.name !== 'string' || u.name === ''
      ? '/name is required'
      : typeof u.password !== 'string' || u.password.length < 8
        ? '/password is required'
        : 'id' in u
          ? 'readOnly properties must not be sent'
          : 'profile' in u && !profileOk(u.profile)
            ? '/profile is invalid'
            : undefined;
  const profileOk = (v: unknown): boolean =>
    typeof v === 'object' &&
    v !== null &&
    !Array.isArray(v) &&
    Object.entries(v).every(([k, x]) => !['bio', 'recoveryCode'].includes(k) || typeof x === 'string');

  return async (req) => {
    const url = new URL(req.url);
    const p = url.pathname.replace(/^\/v2/, '');
    if (p === '/health' && req.method === 'GET') return json(200, { status: 'ok' });
    if (req.headers.get('authorization') !== `Bearer ${KEY}`) return problem(401, 'unauthorized', 'bad key');
    let body: Item = {};
    if (req.method === 'POST' || req.method === 'PUT') {
      try {
        body = JSON.parse(await req.text()) as Item;
      } catch {
        return problem(400, 'bad_json', 'not JSON');
      }
      if (typeof body !== 'object' || body === null || Array.isArray(body))
        return problem(400, 'bad_body', 'not an object');
    }
    const [, kind, id] = /^\/(books|users)(?:\/([^/]+))?$/.exec(p) ?? [];
    if (!kind) return problem(404, 'not_found', p);
    const store = kind === 'books' ? books : users;
    const check = kind === 'books' ? bookOk : userOk;
    const show = kind === 'books' ? (b: Item) => b : shownUser;
    if (!id) {
      if (req.method === 'GET') return json(200, [...store.values()].map(show));
      if (req.method !== 'POST') return problem(405, 'method', req.method);
      const bad = check(body);
      if (bad) return problem(400, 'invalid', bad);
      const made: Item =
        kind === 'books'
          ? { ...body, id: next++, createdAt: new Date().toISOString() }
          : { ...body, id: crypto.randomUUID() };
      store.set(String(made.id), made);
      return json(201, show(made));
    }
    const found = store.get(id);
    if (!found) return problem(kind === 'books' && !/^\d+$/.test(id) ? 400 : 404, 'not_found', id);
    if (req.method === 'GET') return json(200, show(found));
    if (req.method === 'DELETE') {
      store.delete(id);
      return kind === 'books' ? json(204) : json(200);
    }
    if (req.method !== 'PUT') return problem(405, 'method', req.method);
    const bad = check(body);
    if (bad) return problem(400, 'invalid', bad);
    const kept = kind === 'books' ? { id: found.id, createdAt: found.createdAt } : { id: found.id };
    const replaced = { ...body, ...kept };
    store.set(id, replaced);
    return json(200, show(replaced));
  };
}

const run = (fault?: Fault) =>
  runConformance({
    target: 'http://library.test/v2',
    key: KEY,
    specFile: SPEC,
    seed: 3,
    maxWaitMs: 1000,
    fetch: librarySketch(fault),
  });

const failing = (report: Awaited<ReturnType<typeof run>>) =>
  report.rules.filter((r) => r.status === 'fail').map((r) => `${r.id}: ${r.evidence[0]?.problem ?? ''}`);

it('passes the runner when the server follows readOnly and writeOnly as OpenAPI means them', async () => {
  const report = await run();
  const contract = report.rules.filter((r) => r.status === 'fail' && r.kind === 'contract');
  expect(contract.map((r) => `${r.id}: ${r.evidence[0]?.problem ?? ''}`)).toEqual([]);
  expect(report.rules.some((r) => r.id.startsWith('crud.books.') && r.status === 'pass')).toBe(true);
  expect(report.rules.some((r) => r.id.startsWith('crud.users.') && r.status === 'pass')).toBe(true);
});

it('fails a server that answers the writeOnly password', async () => {
  expect(failing(await run('echo-password')).join('\n')).toMatch(/password is writeOnly/);
});

it('fails a server that still demands the readOnly id in a create', async () => {
  expect(failing(await run('require-id')).join('\n')).toMatch(/createBook|crud\.books\.create/);
});
