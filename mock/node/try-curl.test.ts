/**
 * The banner's and the pages' curl works for *this* document: run with a real curl (a shell parses its quoting)
 * against the mock serving each wild document and the pet store, it gets a 2xx; with a wrong key, a secured
 * operation's 401. The key goes where the operation's security says: query, `-u key:`, `-b name=key`, header.
 */
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import type { OpenAPIV3_1 } from 'openapi-types';
import { createFetchHandler } from '../adapters/fetch';
import { loadSpecOrThrow, type CompiledSpec } from '../../spec/load';
import { compileSpec } from '../../spec/compile';
import { listen, serveFetch } from '../../test/support/fetch-bridge';
import { tryCurl } from './try-curl';

const ROOT = path.join(__dirname, '..', '..');
const WILD = path.join(ROOT, 'fixtures', 'specs', 'wild');
const DOCUMENTS = [
  ...fs
    .readdirSync(WILD)
    .filter((f) => /\.ya?ml$/.test(f))
    .map((f) => path.join(WILD, f)),
  path.join(ROOT, 'spec', 'openapi.yaml'),
];
const KEY = 'try-curl-key-0123456789';
const execFileAsync = promisify(execFile);
const hasCurl = (() => {
  try {
    execFileSync('curl', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

const servers: Server[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
});

async function serve(spec: CompiledSpec): Promise<string> {
  const server = serveFetch(await createFetchHandler({ document: spec, keys: [{ key: KEY, plan: 'pro' }] }));
  servers.push(server);
  return `${await listen(server)}${spec.basePath}`;
}

/** The status curl gets running `command` in a shell (asynchronously: the mock answers in this process). */
async function run(command: string): Promise<number> {
  const { stdout } = await execFileAsync('sh', ['-c', `${command} -s -m 10 -o /dev/null -w '%{http_code}'`], {
    encoding: 'utf8',
  });
  return Number(stdout);
}

(hasCurl ? describe : describe.skip)('the curl to try', () => {
  it.each(DOCUMENTS.map((f) => [path.relative(ROOT, f), f]))('works for %s', async (_name, file) => {
    const spec = await loadSpecOrThrow(file);
    const base = await serve(spec);
    const command = tryCurl(spec, base, KEY) as string;
    expect(command).toContain(base);
    const status = await run(command);
    expect([command, status >= 200 && status < 300]).toEqual([command, true]);
    if (command.includes(KEY)) expect(await run(command.replace(KEY, 'wrong-key-0123456789'))).toBe(401);
  });

  const crud = async (scheme: OpenAPIV3_1.SecuritySchemeObject): Promise<CompiledSpec> => {
    const document = structuredClone((await loadSpecOrThrow(path.join(WILD, 'crud-30.yaml'))).document);
    (document.components as OpenAPIV3_1.ComponentsObject).securitySchemes = { basicAuth: scheme };
    return compileSpec('crud-variant', document, false);
  };

  it.each<[string, OpenAPIV3_1.SecuritySchemeObject, RegExp]>([
    ['basic: the key as the user name', { type: 'http', scheme: 'basic' }, / -u try-curl-key-0123456789: /],
    [
      'apiKey in the query',
      { type: 'apiKey', in: 'query', name: 'api_key' },
      /\?api_key=try-curl-key-0123456789"$/,
    ],
    ['apiKey in a cookie', { type: 'apiKey', in: 'cookie', name: 'sid' }, / -b sid=try-curl-key-0123456789 /],
    [
      'apiKey in a header',
      { type: 'apiKey', in: 'header', name: 'X-Key' },
      / -H "X-Key: try-curl-key-0123456789" /,
    ],
    ['bearer', { type: 'http', scheme: 'bearer' }, / -H "Authorization: Bearer try-curl-key-0123456789" /],
  ])('%s', async (_name, scheme, placed) => {
    const spec = await crud(scheme);
    const base = await serve(spec);
    const command = tryCurl(spec, base, KEY) as string;
    expect(command).toMatch(placed);
    expect(await run(command)).toBe(200);
    expect(await run(command.replace(KEY, 'wrong-key-0123456789'))).toBe(401);
  });
});

it('picks a GET that needs no path parameter, filling required query parameters from the schema', async () => {
  const spec = await loadSpecOrThrow(path.join(WILD, 'booking-30.yaml'));
  // Only GET without path parameters there is /trips (open, three required query parameters) or /bookings.
  const command = tryCurl(spec, 'http://127.0.0.1:4010/api/v1', 'K') as string;
  expect(command).toMatch(
    /^curl -H "Authorization: Bearer K" http:\/\/127\.0\.0\.1:4010\/api\/v1\/bookings$/,
  );
});

it('the API reference and the inspector show the curl for this document, the key left to the reader', async () => {
  const { createMockServer } = await import('./index');
  const mock = await createMockServer({
    specPath: path.join(WILD, 'crud-30.yaml'),
    keys: [{ key: KEY, plan: 'pro' }],
    seedFile: null,
    quiet: true,
  });
  const base = await mock.listen(0, '127.0.0.1');
  try {
    const origin = new URL(base).origin;
    for (const page of ['/_mock/docs', '/_mock/inspector']) {
      const html = await (await fetch(`${origin}${page}`)).text();
      expect(html).toContain(`<code id="try-curl">curl -u YOUR_KEY: ${origin}/api/pets</code>`);
      expect(html).not.toContain(KEY);
    }
  } finally {
    await mock.close();
  }
});
