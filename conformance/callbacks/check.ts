/**
 * The callback rules (issue 33): for each selected operation that documents `callbacks`, one accepted request
 * whose callback URL sources (`callbackUrl` in the body, a query `url`, a header) name the runner's receiver,
 * a distinct path per source; then, within `--callbacks-wait-ms`, each documented callback must arrive
 * (`callbacks.arrive`) with its documented method (`callbacks.method`) and a body valid against its request
 * schema (`callbacks.body-schema`, judged by spec/callbacks.ts, the proxy's judge too); and nothing may arrive
 * that the document does not describe (`callbacks.undocumented`: an unknown path, a method no callback there
 * has, a callback twice, or one after the wait; judged at the end of the run, `undocumentedFindings`).
 * Without a receiver every rule is skipped with `no --callbacks-listen` (a skip the run's options ask for).
 */
import type { OperationSpec, ParamSpec } from '../../spec/load';
import { judgeCallback, setBodySource, type CallbackSource, type CallbackSpec } from '../../spec/callbacks';
import type { Exchange, Finding } from '../types';
import { fail, pass, skip, unusable, type Check, type RunContext } from '../send/check-context';
import type { RuleId } from '../rules';
import { isWrite } from '../send/client';
import { requiredParamText } from '../send/required-params';
import { generateValid } from '../generate/values';
import { jsonMediaType } from '../build/requests';
import { pathFor } from '../build/bodies';
import type { Arrival, CallbackReceiving, Receiver } from '../send/callback-receiver';

export const CALLBACK_RULES = [
  'callbacks.arrive',
  'callbacks.method',
  'callbacks.body-schema',
  'callbacks.undocumented',
] as const;

/** `arrival` is at `prefix` (the path itself, or under it, or with a query). */
const under = (arrival: Arrival, prefix: string): boolean =>
  arrival.path === prefix || arrival.path.startsWith(`${prefix}/`) || arrival.path.startsWith(`${prefix}?`);

const sourceKey = (s: CallbackSource): string =>
  s.in === 'body' ? `body ${s.pointer}` : `${s.in} ${s.name.toLowerCase()}`;

const describe = (a: Arrival): string =>
  `${a.method} ${a.path}${a.tooLarge ? ' (body over the receiver bound)' : a.body ? `: ${a.body.slice(0, 200)}` : ''}`;

/** An arrival as an exchange, for the evidence. */
const asExchange = (r: Receiver, a: Arrival): Exchange => ({
  request: { method: a.method, url: `${r.origin}${a.path}`, headers: {}, body: a.body.slice(0, 1000) },
  response: { status: a.tooLarge ? 413 : 200, headers: {}, body: '' },
  receivedAt: a.at,
});

export const callbacksCheck: Check = {
  name: 'callbacks',
  rules: [...CALLBACK_RULES],
  async run(ctx: RunContext): Promise<Finding[]> {
    const ops = ctx.spec.operations.filter((op) => op.callbacks?.length);
    const findings: Finding[] = [];
    for (const op of ops) findings.push(...(await checkOperation(op, ctx)));
    return findings;
  },
};

async function checkOperation(op: OperationSpec, ctx: RunContext): Promise<Finding[]> {
  const callbacks = op.callbacks ?? [];
  const all = (outcome: (rule: RuleId) => Finding) => CALLBACK_RULES.map(outcome);
  const receiving = ctx.callbacks;
  const label = `${op.operationId} (${op.method.toUpperCase()} ${op.path})`;
  if (!receiving)
    return all((rule) => skip(rule, `no --callbacks-listen: no receiver for the callbacks of ${label}`));
  if (ctx.readOnly && isWrite(op.method))
    return all((rule) => skip(rule, `--read-only: ${op.method.toUpperCase()} is not sent (${label})`));
  const findings: Finding[] = [];
  const reachable = callbacks.filter((c) => c.source);
  for (const c of callbacks.filter((x) => !x.source))
    findings.push(
      skip('callbacks.arrive', `callback ${c.name} of ${op.operationId}: ${c.sourceProblem ?? ''}`),
    );
  if (reachable.length === 0) return findings;

  // One receiver path per source; callbacks that share a source share its path.
  const groups = new Map<string, { source: CallbackSource; prefix: string; specs: CallbackSpec[] }>();
  for (const c of reachable) {
    const source = c.source as CallbackSource;
    const key = sourceKey(source);
    let group = groups.get(key);
    if (!group) {
      const prefix = `/callbacks/${receiving.handedOut.length + 1}-${encodeURIComponent(op.operationId)}`;
      receiving.handedOut.push(prefix);
      group = { source, prefix, specs: [] };
      groups.set(key, group);
    }
    group.specs.push(c);
  }

  const target = await pathFor(op, ctx);
  if ('skip' in target) return [...findings, ...all((rule) => skip(rule, target.skip))];
  let body: unknown = op.requestBody
    ? target.adjust(generateValid(op.requestBody.schema, ctx.random, ctx.runPrefix))
    : undefined;
  // Required parameters get a generated value, so that the request is one the server accepts.
  const query = requiredValues(op.queryParams);
  const headers = requiredValues(op.headerParams);
  for (const g of groups.values()) {
    const url = `${receiving.receiver.origin}${g.prefix}`;
    if (g.source.in === 'body') body = setBodySource(body, g.source.pointer, url);
    else if (g.source.in === 'query') query[g.source.name] = url;
    else headers[g.source.name] = url;
  }
  const result = await ctx.client.send({
    method: op.method.toUpperCase(),
    path: target.path,
    auth: { use: 'key' },
    ...(Object.keys(query).length ? { query } : {}),
    headers: { ...(body !== undefined ? { 'Content-Type': jsonMediaType(op) } : {}), ...headers },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const bad = unusable('callbacks.arrive', result);
  if (bad) return [...findings, bad];
  if (result.kind !== 'response') return findings;
  const trigger = result.exchange;
  receiving.lastTriggerAt = Date.now();
  if (result.response.status < 200 || result.response.status >= 300)
    return [
      ...findings,
      ...all((rule) =>
        skip(
          rule,
          `${label} answered ${result.response.status} to a request naming the receiver; callbacks follow an accepted request`,
        ),
      ),
    ];

  const { receiver } = receiving;
  const expected = [...groups.values()];
  await receiver.waitFor(
    (got) => expected.every((g) => got.filter((a) => under(a, g.prefix)).length >= g.specs.length),
    receiving.waitMs,
  );
  for (const g of expected) findings.push(...judgeGroup(g, receiving, trigger, label));
  return findings;
}

/** A generated value for each required parameter of `params`, by name. */
function requiredValues(params: readonly ParamSpec[]): Record<string, string> {
  return Object.fromEntries(params.filter((p) => p.required).map((p) => [p.name, requiredParamText(p)]));
}

/** Judge what arrived at one source's path: each expected callback once, with its method and a valid body. */
function judgeGroup(
  g: { prefix: string; specs: CallbackSpec[] },
  receiving: CallbackReceiving,
  trigger: Exchange,
  label: string,
): Finding[] {
  const { receiver } = receiving;
  const out: Finding[] = [];
  const taken = new Set<CallbackSpec>();
  for (const a of receiver.arrivals().filter((x) => under(x, g.prefix))) {
    receiving.judged.add(a);
    const evidence = asExchange(receiver, a);
    const verdict = judgeCallback(g.specs, a.tooLarge ? { ...a, body: '' } : a, taken);
    const { match } = verdict;
    if (!match) {
      for (const p of verdict.problems) out.push(fail(p.rule, `${label}: ${p.message}`, evidence, [trigger]));
      out.push(
        fail('callbacks.undocumented', `${label}: ${describe(a)} is no documented callback`, evidence),
      );
      continue;
    }
    out.push(pass('callbacks.method', evidence));
    if (taken.has(match))
      out.push(
        fail(
          'callbacks.undocumented',
          `${label}: callback ${match.name} arrived more than once (${describe(a)})`,
          evidence,
          [trigger],
        ),
      );
    taken.add(match);
    if (verdict.problems.length === 0) out.push(pass('callbacks.body-schema', evidence));
    for (const p of verdict.problems) out.push(fail(p.rule, `${label}: ${p.message}`, evidence, [trigger]));
  }
  for (const spec of g.specs) {
    if (taken.has(spec)) out.push(pass('callbacks.arrive', trigger));
    else
      out.push(
        fail(
          'callbacks.arrive',
          `${label}: callback ${spec.name} (${spec.method} ${spec.key}) did not arrive at ${receiver.origin}${g.prefix} within ${receiving.waitMs} ms`,
          trigger,
        ),
      );
  }
  return out;
}

/**
 * At the end of the run, once the wait after the last request naming the receiver is over: every arrival no
 * check judged is undocumented (a path the run never handed out, or a callback after its wait); none is a pass
 * when the run had a receiver and sent a request naming it.
 */
export async function undocumentedFindings(receiving: CallbackReceiving | undefined): Promise<Finding[]> {
  if (!receiving || receiving.handedOut.length === 0) return [];
  const { receiver } = receiving;
  const left = receiving.lastTriggerAt + receiving.waitMs - Date.now();
  if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
  const stray = receiver.arrivals().filter((a) => !receiving.judged.has(a));
  const out = stray.map((a) =>
    fail(
      'callbacks.undocumented',
      receiving.handedOut.some((p) => under(a, p))
        ? `${describe(a)} arrived after the wait (--callbacks-wait-ms ${receiving.waitMs})`
        : `${describe(a)} arrived at a path the run never handed out`,
      asExchange(receiver, a),
    ),
  );
  if (receiver.dropped() > 0)
    out.push(
      fail(
        'callbacks.undocumented',
        `${receiver.dropped()} more requests arrived after the receiver's bound and were answered 503`,
      ),
    );
  return out.length > 0 ? out : [pass('callbacks.undocumented')];
}
