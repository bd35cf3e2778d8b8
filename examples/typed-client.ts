/**
 * A typed client for the pet store API, as a frontend would write it: the types generated from
 * spec/openapi.yaml (spec/generated/openapi.d.ts, the file the project itself uses) and openapi-fetch.
 * Paths, bodies and responses are checked by the compiler; errors come back as the spec's Error shape.
 *
 *   npm start                                   # the mock, on 127.0.0.1:4010
 *   PETSTORE_BASE_URL=http://127.0.0.1:4010/v1 PETSTORE_API_KEY=free-demo-key npx tsx examples/typed-client.ts
 *
 * PETSTORE_QUOTA_KEY (optional) is a key whose quota the example may spend to show a 429 being handled.
 */
import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from '../spec/generated/openapi';

export type Category = components['schemas']['Category'];
export type ApiError = components['schemas']['Error'];
export type PetstoreClient = Client<paths>;

/** A client for one base URL (ending in /v1) and one API key, sent as `Authorization: Bearer <key>` (§5). */
export function petstoreClient(baseUrl: string, apiKey: string): PetstoreClient {
  return createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${apiKey}` } });
}

/** §8: Retry-After in milliseconds, as seconds or as an HTTP-date; undefined when absent or unreadable. */
export function retryAfterMs(response: Response, nowMs = Date.now()): number | undefined {
  const value = response.headers.get('Retry-After');
  if (value === null) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

/**
 * Call `send` again after a 429, waiting what Retry-After says, and longer each time (§8.3: back off
 * exponentially; hammering a limited key can get it banned). Gives up when a wait would exceed `maxWaitMs`.
 */
export async function withRetryAfter<T extends { response: Response }>(
  send: () => Promise<T>,
  options: { maxAttempts?: number; maxWaitMs?: number; onWait?: (ms: number) => void } = {},
): Promise<T> {
  const { maxAttempts = 4, maxWaitMs = 65_000, onWait } = options;
  let result = await send();
  for (let attempt = 0; result.response.status === 429 && attempt < maxAttempts; attempt++) {
    const wait = Math.max(retryAfterMs(result.response) ?? 1000, 500 * 2 ** attempt);
    if (wait > maxWaitMs) break;
    onWait?.(wait);
    await new Promise((resolve) => setTimeout(resolve, wait));
    result = await send();
  }
  return result;
}

/** The walk-through: list, create, a 400, a 401, and (with a quota key) a 429 handled by Retry-After. */
export async function main(env: NodeJS.ProcessEnv, print: (line: string) => void): Promise<void> {
  const baseUrl = env.PETSTORE_BASE_URL ?? 'http://127.0.0.1:4010/v1';
  const client = petstoreClient(baseUrl, env.PETSTORE_API_KEY ?? 'free-demo-key');

  const listed = await client.GET('/categories');
  if (!listed.data) throw new Error(`list failed: ${listed.response.status}`);
  print(
    `list: ${listed.response.status}, ${listed.data.length} categories (${listed.data.map((c) => c.name).join(', ')})`,
  );

  const created = await client.POST('/categories', {
    body: { name: 'parrot', description: 'Talkative birds' },
  });
  if (!created.data) throw new Error(`create failed: ${created.response.status}`);
  const category: Category = created.data;
  print(`create: ${created.response.status}, id ${category.id} (${category.name})`);

  // The compiler refuses a body without `name`; the cast sends one anyway, to show the server's 400.
  const invalid = await client.POST('/categories', { body: { description: 'no name' } as never });
  const badRequest: ApiError | undefined = invalid.error;
  print(`400: ${invalid.response.status} ${badRequest?.code}: ${badRequest?.message}`);

  const stranger = petstoreClient(baseUrl, 'not-a-real-key');
  const denied = await stranger.GET('/categories');
  print(`401: ${denied.response.status} ${denied.error?.code}: ${denied.error?.message}`);

  if (!env.PETSTORE_QUOTA_KEY)
    return print('429: skipped (set PETSTORE_QUOTA_KEY to a key whose quota may be spent)');
  const limited = petstoreClient(baseUrl, env.PETSTORE_QUOTA_KEY);
  let sent = 0;
  let last = await limited.GET('/categories');
  for (sent = 1; last.response.status !== 429 && sent < 2000; sent++) last = await limited.GET('/categories');
  if (last.response.status !== 429) return print(`429: not reached after ${sent} requests`);
  print(`429: after ${sent} requests; Retry-After ${last.response.headers.get('Retry-After')} s`);
  const retried = await withRetryAfter(() => limited.GET('/categories'), {
    maxWaitMs: Number(env.PETSTORE_MAX_WAIT_MS ?? 65_000),
    onWait: (ms) => print(`waiting ${ms} ms as Retry-After says`),
  });
  print(
    `after waiting: ${retried.response.status}${retried.data ? `, ${retried.data.length} categories` : ''}`,
  );
}

if (require.main === module) {
  main(process.env, (line) => process.stdout.write(`${line}\n`)).catch((err: unknown) => {
    process.stderr.write(`typed-client: ${(err as Error).message}\n`);
    process.exit(1);
  });
}
