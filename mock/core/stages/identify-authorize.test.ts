/**
 * The caller's identity and the 401 are built once and reused (issue 42): reuse must never hand one caller's
 * identity to another, nor one operation's or problem's refusal to another.
 */
import type { OperationSpec } from '../../../spec/compile';
import type { Ctx, RoutedCtx, Deps } from '../context';
import type { CredentialReader } from '../credentials';
import { createKeyring } from '../keys';
import { identifyCaller } from './identify';
import { authorize } from './authorize';

const bearer: CredentialReader = {
  scheme: 'bearerAuth',
  kind: 'bearer',
  challenge: 'Bearer realm="mock"',
  read: (h) => {
    const v = typeof h.authorization === 'string' ? h.authorization : '';
    return v.startsWith('Bearer ') ? { keys: [v.slice(7)] } : { problem: 'missing Authorization header' };
  },
};
const apiKey: CredentialReader = {
  scheme: 'apiKeyAuth',
  kind: 'apiKey',
  challenge: 'ApiKey',
  read: (h) =>
    typeof h['x-api-key'] === 'string' ? { keys: [h['x-api-key']] } : { problem: 'no X-Api-Key' },
};
const ctx = (headers: Record<string, string>): Ctx =>
  ({ req: { method: 'GET', path: '/', query: '', headers, remoteAddress: '10.0.0.1' } }) as Ctx;

it('gives each key its own identity, whichever came just before', async () => {
  const ring = await createKeyring([
    { key: 'free-key-0123456789', plan: 'free' },
    { key: 'pro-key-0123456789', plan: 'pro' },
  ]);
  const who = (h: Record<string, string>) => identifyCaller(ctx(h), [bearer, apiKey], ring, []);
  const seen = [
    who({ authorization: 'Bearer free-key-0123456789' }),
    who({ authorization: 'Bearer pro-key-0123456789' }),
    who({ 'x-api-key': 'pro-key-0123456789' }),
    who({ authorization: 'Bearer pro-key-0123456789' }),
    who({ authorization: 'Bearer free-key-0123456789' }),
  ];
  expect(seen.map((i) => i.plan)).toEqual(['free', 'pro', 'pro', 'pro', 'free']);
  expect(seen.map((i) => [...i.schemes])).toEqual([
    ['bearerAuth'],
    ['bearerAuth'],
    ['apiKeyAuth'],
    ['bearerAuth'],
    ['bearerAuth'],
  ]);
  expect(seen[1]).toBe(seen[3]);
});

const op = (operationId: string, security: string[][]): OperationSpec =>
  ({ operationId, security }) as unknown as OperationSpec;

const READERS = [bearer, apiKey];

function refuse(operation: OperationSpec, problem: string, credentials = READERS) {
  const routed = {
    ...ctx({}),
    operation,
    identity: { schemes: new Set<string>(), authProblem: problem },
  } as unknown as RoutedCtx;
  const out = authorize(routed, { credentials } as unknown as Deps);
  if (!('reply' in out)) throw new Error('not refused');
  return out.reply;
}

it('refuses with the operation’s own challenge and the caller’s own problem, built once', () => {
  const both = op('both', [['bearerAuth'], ['apiKeyAuth']]);
  const keyOnly = op('keyOnly', [['apiKeyAuth']]);
  const first = refuse(both, 'unknown API key');
  expect(first.headers).toEqual({ 'WWW-Authenticate': 'Bearer realm="mock", ApiKey' });
  expect(first.error?.message).toBe('The API key is missing or invalid: unknown API key.');
  expect(refuse(both, 'unknown API key')).toBe(first);
  expect(Object.isFrozen(first)).toBe(true);
  expect(refuse(keyOnly, 'unknown API key').headers).toEqual({ 'WWW-Authenticate': 'ApiKey' });
  expect(refuse(both, 'no credentials').error?.message).toBe(
    'The API key is missing or invalid: no credentials.',
  );
  expect(refuse(both, 'unknown API key', [bearer]).headers).toEqual({
    'WWW-Authenticate': 'Bearer realm="mock"',
  });
});
