/**
 * A members server for the fuzz phase's tests (fixtures/specs/fuzz-target-31.yaml), node:http on 127.0.0.1:0:
 * faithful (bodies checked against the document's own schema) or with one fault, the kind a server has in
 * practice: a bound read the wrong way, a constraint left unchecked, a type converted, a refused create stored.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

export type FuzzFault =
  | 'exclusive-as-inclusive'
  | 'inclusive-as-exclusive'
  | 'max-length-unchecked'
  | 'min-length-unchecked'
  | 'maximum-unchecked'
  | 'max-items-unchecked'
  | 'enum-unchecked'
  | 'email-unchecked'
  | 'type-converted'
  | 'additional-allowed'
  | 'refused-stored'
  | 'put-unvalidated';

type Json = Record<string, unknown>;

/** The request schema of a member, as the document states it, with the fault's change. */
function memberSchema(fault?: FuzzFault): Json {
  const props: Record<string, Json> = {
    name: { type: 'string', minLength: 1, maxLength: 20 },
    email: { type: 'string', format: 'email' },
    age: { type: 'integer', exclusiveMinimum: 0, maximum: 150 },
    role: { type: 'string', enum: ['admin', 'user'] },
    tags: { type: 'array', maxItems: 3, items: { type: 'string', maxLength: 10 } },
  };
  const schema: Json = {
    type: 'object',
    additionalProperties: false,
    required: ['name', 'email'],
    properties: props,
  };
  const p = (name: string) => props[name] as Json;
  if (fault === 'exclusive-as-inclusive') {
    delete p('age').exclusiveMinimum;
    p('age').minimum = 0;
  }
  if (fault === 'inclusive-as-exclusive') {
    delete p('age').maximum;
    p('age').exclusiveMaximum = 150;
  }
  if (fault === 'max-length-unchecked') delete p('name').maxLength;
  if (fault === 'min-length-unchecked') delete p('name').minLength;
  if (fault === 'maximum-unchecked') delete p('age').maximum;
  if (fault === 'max-items-unchecked') delete p('tags').maxItems;
  if (fault === 'enum-unchecked') delete p('role').enum;
  if (fault === 'email-unchecked') delete p('email').format;
  if (fault === 'additional-allowed') schema.additionalProperties = true;
  return schema;
}

/** Start a server; `close()` stops it. */
export async function startFuzzServer(fault?: FuzzFault): Promise<{ url: string; close(): Promise<void> }> {
  const ajv = new Ajv2020({ allErrors: true, strict: false, coerceTypes: fault === 'type-converted' });
  addFormats(ajv);
  const validate = ajv.compile(memberSchema(fault));
  const members = new Map<number, Json>();
  let next = 1;
  const send = (res: http.ServerResponse, status: number, body?: unknown) => {
    if (body === undefined) return void res.writeHead(status).end();
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
  const error = (res: http.ServerResponse, status: number, message: string) =>
    send(res, status, { code: status === 400 ? 'invalid_request' : 'error', message, status });
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      // The one key the tests use: an unknown key is refused too (the stateful chain sends one).
      if (req.headers.authorization !== 'Bearer fuzz-test-key-0123456789') return error(res, 401, 'no key');
      const url = new URL(req.url ?? '/', 'http://x');
      const item = /^\/v1\/members\/(\d+)$/.exec(url.pathname);
      let body: unknown;
      if (chunks.length) {
        try {
          body = JSON.parse(Buffer.concat(chunks).toString());
        } catch {
          return error(res, 400, 'malformed JSON');
        }
      }
      const valid = validate(body);
      if (url.pathname === '/v1/members' && req.method === 'GET')
        return send(res, 200, [...members.values()]);
      if (url.pathname === '/v1/members' && req.method === 'POST') {
        if (!valid && fault === 'refused-stored') members.set(next, { ...(body as Json), id: next++ });
        if (!valid) return error(res, 400, ajv.errorsText(validate.errors));
        const created = { ...(body as Json), id: next++ };
        members.set(created.id, created);
        return send(res, 201, created);
      }
      const id = Number(item?.[1]);
      if (!item || !members.has(id)) return error(res, 404, 'no such member');
      if (req.method === 'GET') return send(res, 200, members.get(id));
      if (req.method === 'DELETE') return (members.delete(id), send(res, 204));
      if (req.method === 'PUT') {
        if (!valid && fault !== 'put-unvalidated') return error(res, 400, ajv.errorsText(validate.errors));
        const replaced = { ...(body as Json), id };
        members.set(id, replaced);
        return send(res, 200, replaced);
      }
      return error(res, 405, 'method not allowed');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
