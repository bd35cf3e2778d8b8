/**
 * The admin routes of webhooks (issue 33): `GET /_mock/webhooks` lists the document's webhooks and what sends
 * each; `POST /_mock/webhooks/{name}` sends one now. Who may call them is decided in ./routes.ts, as for every
 * admin route (./admin.ts lists them); served, they are never counted nor refused by a ban.
 */
import type { Ctx, Reply } from '../core/context';
import {
  apiError,
  invalidEncoding,
  invalidRequest,
  malformedJson,
  payloadTooLarge,
  serviceUnavailable,
} from '../core/errors';
import { validatorOf } from '../core/callback-body';
import { decideWebhook, onDemandSource, webhooksOf, type WebhookDef } from '../core/webhooks';
import { formatAjvErrors } from '../../spec/compile';
import type { Schema } from '../../spec/schema-shape';
import type { NodeDeps as Deps } from './deps';

/** `GET /_mock/webhooks`: the document's webhooks, what sends each (resource and event) and where. */
export function listWebhooks(deps: Deps): Reply {
  const { config } = deps;
  const webhooks = webhooksOf(deps).map((d) => {
    const own = config.webhooks[d.name];
    return {
      name: d.name,
      method: d.method,
      trigger: own?.enabled === false ? null : (d.trigger ?? null),
      // Where it goes (never a secret: only whether one signs it).
      url: own?.url ?? config.webhookUrl,
      signatureHeader: d.signatureHeader ?? null,
      signed: d.signatureHeader !== undefined && Boolean(own?.secret ?? config.webhookSecret),
    };
  });
  return { status: 200, body: { webhooks } };
}

export const WEBHOOKS_PREFIX = '/_mock/webhooks/';

/** The body of an on-demand send: none, or JSON valid against the webhook's schema; else the refusal. */
async function givenBody(deps: Deps, ctx: Ctx, def: WebhookDef): Promise<{ given?: unknown } | Reply> {
  const max = deps.config.maxBodyBytes;
  const read = ctx.req.body
    ? { bytes: ctx.req.body, tooLarge: ctx.req.body.length > max }
    : ((await ctx.req.readBody?.(max)) ?? { bytes: new Uint8Array(0), tooLarge: false });
  if (read === null) return { status: 499, raw: new Uint8Array(0) };
  if (read.tooLarge) return payloadTooLarge(max);
  if (read.bytes.length === 0) return {};
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(read.bytes);
  } catch {
    return invalidEncoding('request body is not UTF-8');
  }
  if (text.trim() === '') return {};
  let given: unknown;
  try {
    given = JSON.parse(text);
  } catch (err) {
    return malformedJson((err as Error).message);
  }
  const validate = def.schema === undefined ? undefined : validatorOf(def.schema as Schema);
  if (validate && !validate(given))
    return invalidRequest(`webhook ${def.name}: ${formatAjvErrors(validate.errors)}`);
  return { given };
}

/**
 * `POST /_mock/webhooks/{name}`: send that webhook now, with the JSON body given (checked against its schema) or
 * one built as a state change would (its example, else generated). 202 with the send's record (its outcome:
 * pending, or refused when --callback-hosts does not allow the target); 404 for a name the document does not have.
 */
export async function sendWebhook(deps: Deps, ctx: Ctx): Promise<Reply> {
  let name: string;
  try {
    name = decodeURIComponent(ctx.req.path.slice(WEBHOOKS_PREFIX.length));
  } catch {
    return invalidEncoding('the webhook name is not valid percent-encoding');
  }
  const defs = webhooksOf(deps);
  const def = defs.find((d) => d.name === name);
  const shown = name.length > 200 ? `${name.slice(0, 200)}…` : name;
  if (!def)
    return apiError(
      'not_found',
      `no webhook ${JSON.stringify(shown)} in the document (it has: ${defs.map((d) => d.name).join(', ') || 'none'})`,
    );
  const body = await givenBody(deps, ctx, def);
  if ('status' in body) return body;
  const resource = deps.model.resources.find((r) => r.name === def.trigger?.resource);
  const send = decideWebhook(
    def,
    deps.config,
    { schemes: deps.spec.securitySchemes, credentials: deps.config.callbackCredentials },
    'given' in body
      ? { given: body.given }
      : { source: onDemandSource(), wraps: resource?.itemSchema, event: def.trigger?.event },
    { operationId: '', event: 'on demand' },
  );
  if (!send)
    return invalidRequest(
      `webhook ${def.name} has no target: start the mock with --webhooks URL (or webhookUrl in the settings)`,
    );
  const outbox = deps.callbacks?.outbox ?? deps.outbox;
  if (!outbox) return serviceUnavailable(1);
  outbox([send]);
  return { status: 202, body: { status: 'queued', webhook: def.name, record: deps.callbacks?.list()[0] } };
}
