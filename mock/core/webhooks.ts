/**
 * OpenAPI 3.1 top-level `webhooks` (issue 33): which webhook reports which state change, and what to send. Pure:
 * the document, the inferred resources and the settings in; sends (the same `CallbackSend` values callbacks make,
 * `kind: 'webhook'`) out. The Node layer sends them (mock/node/callbacks.ts); the core never opens a connection.
 *
 * - A webhook reports `created`, `updated` or `deleted` of a resource when the settings say so
 *   (`webhooks: { petCreated: { resource: pets, event: created } }`), else its operation's (or path item's)
 *   `x-mock: { resource, event }`, else by convention: its name (or operationId) ends in an event word
 *   (`petCreated`, `pet.created`, `order-updated`, `pet_deleted`; also added/changed/removed) and its payload
 *   schema is a resource's item schema, or holds it one or two levels down (`{ type, data: Pet }`); when several
 *   resources fit, the one the name names.
 * - The body is built as a callback's (./callbacks.ts `callbackBody`): its example, else generated, with the
 *   stored record's same-named values, inside the wrapper too; a string enum property (`type: pet.created`)
 *   takes the value that names the event. A deleted record's webhook has its id.
 * - A webhook that documents a header whose name contains `signature` is signed when a secret is set: the send
 *   says which header and format; the sender computes the HMAC over the exact bytes it sends.
 */
import { createdIdOf } from '../../spec/created-id';
import { unwrap } from '../../spec/envelope';
import type { OpenAPIV3_1 } from 'openapi-types';
import type { Binding, ResourceModel } from '../../spec/resources';
import { isObject } from '../../spec/json';
import { maskUrl } from '../../spec/redact';
import { operationsOf } from '../../spec/methods';
import {
  headerParameters,
  requestMedia,
  requestOf,
  type CallbackSend,
  type CallbackSource,
  type OutgoingAuthSource,
} from './callbacks';
import { pathsTo, validatorOf } from './callback-body';
import type { Schema } from '../../spec/schema-shape';
import type { MockConfig, SignatureFormat, WebhookEvent } from './settings';

export const WEBHOOK_EVENTS: readonly WebhookEvent[] = ['created', 'updated', 'deleted'];

const EVENT_WORDS: Readonly<Record<string, WebhookEvent>> = {
  created: 'created',
  added: 'created',
  updated: 'updated',
  changed: 'updated',
  modified: 'updated',
  deleted: 'deleted',
  removed: 'deleted',
};

export interface WebhookDef {
  /** Its key in the document's `webhooks`. */
  name: string;
  method: string;
  item: OpenAPIV3_1.PathItemObject;
  op: OpenAPIV3_1.OperationObject;
  /** The payload schema, when the webhook documents one. */
  schema?: unknown;
  /** The documented signature header (`X-Hub-Signature-256`), if any. */
  signatureHeader?: string;
  /** The state change that sends it, and who said so. */
  trigger?: { resource: string; event: WebhookEvent; by: 'settings' | 'x-mock' | 'convention' };
}

/** Pure: the words of a name (`balancePlatform.accountHolder.created` -> balance platform account holder created). */
export function wordsOf(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** Pure: the event a name ends in (its last event word), or undefined. */
export function eventOfName(text: string): WebhookEvent | undefined {
  const words = wordsOf(text);
  for (let i = words.length - 1; i >= 0; i--) {
    const e = EVENT_WORDS[words[i] ?? ''];
    if (e) return e;
  }
  return undefined;
}

/** The state change a resource action makes, if any. */
export function eventOfAction(action: Binding['action']): WebhookEvent | undefined {
  if (action === 'create') return 'created';
  if (action === 'replace' || action === 'patch' || action === 'update') return 'updated';
  if (action === 'remove') return 'deleted';
  return undefined;
}

const singular = (w: string): string =>
  w.endsWith('ies') ? `${w.slice(0, -3)}y` : w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w;

/** Does the webhook's name name the resource (`pet` in `petCreated` for `pets`)? */
const namesResource = (words: readonly string[], resource: string): boolean => {
  const joined = words.map(singular).join('');
  return joined.includes(wordsOf(resource).map(singular).join(''));
};

/**
 * The resource whose item the payload is, or wraps where the webhook's name names the resource (a `{ sender: User }`
 * in every event of an API makes no event a `userCreated`); narrowed by the name when several fit.
 */
function resourceBySchema(
  schema: unknown,
  words: readonly string[],
  model: ResourceModel,
): string | undefined {
  if (!isObject(schema)) return undefined;
  const parts = Array.isArray(schema.allOf) ? schema.allOf : [];
  const fits = model.resources.filter((r) => {
    if (schema === r.itemSchema || parts.includes(r.itemSchema)) return true;
    return namesResource(words, r.name) && pathsTo(schema, r.itemSchema).length > 0;
  });
  if (fits.length <= 1) return fits[0]?.name;
  const named = fits.filter((r) => namesResource(words, r.name));
  return named.length === 1 ? named[0]?.name : undefined;
}

/** `x-mock: { resource, event }` on the webhook's operation or path item. */
function xMockTrigger(
  item: OpenAPIV3_1.PathItemObject,
  op: OpenAPIV3_1.OperationObject,
): { resource?: unknown; event?: unknown } | undefined {
  const raw = (op as Record<string, unknown>)['x-mock'] ?? (item as Record<string, unknown>)['x-mock'];
  return isObject(raw) && (raw.resource !== undefined || raw.event !== undefined) ? raw : undefined;
}

/** Pure: every webhook of the document with its trigger, and the problems of the settings and `x-mock`s. */
export function webhookCatalogue(
  document: OpenAPIV3_1.Document,
  model: ResourceModel,
  settings: MockConfig['webhooks'],
): { defs: WebhookDef[]; problems: string[] } {
  const defs: WebhookDef[] = [];
  const problems: string[] = [];
  const resources = model.resources.map((r) => r.name);
  const known = (resource: unknown, event: unknown, where: string): boolean => {
    if (typeof resource !== 'string' || !resources.includes(resource))
      problems.push(
        `${where}: no resource ${String(resource)} (resources: ${resources.join(', ') || 'none'})`,
      );
    else if (typeof event !== 'string' || !(WEBHOOK_EVENTS as readonly string[]).includes(event))
      problems.push(`${where}: event must be created, updated or deleted`);
    else return true;
    return false;
  };
  const hooks = (document as { webhooks?: Record<string, unknown> }).webhooks ?? {};
  for (const [name, item] of Object.entries(hooks)) {
    if (!isObject(item) || name.startsWith('x-')) continue;
    const path = item as OpenAPIV3_1.PathItemObject;
    for (const { method, operation: op } of operationsOf(path)) {
      const schema = requestMedia(op)?.media?.schema;
      const signatureHeader = headerParameters(path, op).find((p) => /signature/i.test(p.name))?.name;
      const def: WebhookDef = { name, method: method.toUpperCase(), item: path, op, schema, signatureHeader };
      const own = settings[name];
      const x = xMockTrigger(path, op);
      if (own?.resource !== undefined) {
        if (known(own.resource, own.event, `webhooks.${name}`))
          def.trigger = { resource: own.resource, event: own.event as WebhookEvent, by: 'settings' };
      } else if (x) {
        if (known(x.resource, x.event, `webhooks.${name} x-mock`))
          def.trigger = { resource: x.resource as string, event: x.event as WebhookEvent, by: 'x-mock' };
      } else {
        const event = eventOfName(name) ?? eventOfName(op.operationId ?? '');
        const words = [...wordsOf(name), ...wordsOf(op.operationId ?? '')];
        const resource = event ? resourceBySchema(schema, words, model) : undefined;
        if (event && resource) def.trigger = { resource, event, by: 'convention' };
      }
      defs.push(def);
    }
  }
  for (const name of Object.keys(settings))
    if (!defs.some((d) => d.name === name))
      problems.push(
        `webhooks.${name}: the document has no webhook ${name} (it has: ${defs.map((d) => d.name).join(', ') || 'none'})`,
      );
  return { defs, problems };
}

const catalogues = new WeakMap<MockConfig, { model: ResourceModel; defs: WebhookDef[] }>();

/** The webhooks of what a deps serves, worked out once per settings and model. */
export function webhooksOf(deps: {
  config: MockConfig;
  model: ResourceModel;
  spec: { document: OpenAPIV3_1.Document };
}): WebhookDef[] {
  const cached = catalogues.get(deps.config);
  if (cached?.model === deps.model) return cached.defs;
  const { defs } = webhookCatalogue(deps.spec.document, deps.model, deps.config.webhooks);
  catalogues.set(deps.config, { model: deps.model, defs });
  return defs;
}

/** A string enum property of the body takes the value that names this event (`pet.created`), where one does. */
function namingEvent(body: unknown, schema: unknown, def: WebhookDef, event: WebhookEvent): unknown {
  const props = isObject(schema) && isObject(schema.properties) ? schema.properties : undefined;
  if (!isObject(body) || !props) return body;
  const validate = validatorOf(schema as Schema);
  let out = body;
  for (const [key, sub] of Object.entries(props)) {
    const values = isObject(sub)
      ? Array.isArray(sub.enum)
        ? sub.enum
        : sub.const !== undefined
          ? [sub.const]
          : []
      : [];
    const strings = values.filter((v): v is string => typeof v === 'string');
    const pick =
      strings.find((v) => v === def.name) ??
      strings.find((v) => eventOfName(v) === event && wordsOf(v).some((w) => wordsOf(def.name).includes(w)));
    if (pick === undefined || out[key] === pick) continue;
    const next = { ...out, [key]: pick };
    if (!validate || validate(next)) out = next;
  }
  return out;
}

/** Where and how a webhook goes, from the settings: its URL, and its signing (undefined: not signed). */
function targetOf(
  def: WebhookDef,
  config: MockConfig,
): { url?: string; sign?: CallbackSend['sign']; note?: string } {
  const own = config.webhooks[def.name];
  const url = own?.url ?? config.webhookUrl ?? undefined;
  if (!def.signatureHeader) return { url };
  const secret = own?.secret ?? config.webhookSecret ?? undefined;
  if (!secret) return { url, note: `not signed: no webhookSecret for ${def.signatureHeader}` };
  const format: SignatureFormat =
    own?.signature ??
    config.webhookSignature ??
    (def.signatureHeader.toLowerCase() === 'stripe-signature' ? 'stripe' : 'sha256');
  return { url, sign: { header: def.signatureHeader, format, secret } };
}

/**
 * Pure: one webhook's send: `body` given (checked by the caller), or built from `source` (the stored record as
 * `responseBody`); undefined when neither the settings nor `--webhooks` give it a URL.
 */
export function decideWebhook(
  def: WebhookDef,
  config: MockConfig,
  auth: OutgoingAuthSource,
  body: { given: unknown } | { source: CallbackSource; wraps?: unknown; event?: WebhookEvent },
  cause: { operationId: string; event: string },
): CallbackSend | undefined {
  const target = targetOf(def, config);
  if (target.url === undefined) return undefined;
  const made = requestOf(
    def.item,
    def.op,
    { url: target.url },
    'given' in body ? body : { source: body.source, wraps: body.wraps },
    auth,
    def.signatureHeader ? [def.signatureHeader.toLowerCase()] : [],
  );
  if (!('given' in body) && body.event) made.body = namingEvent(made.body, def.schema, def, body.event);
  const notes = [made.note, target.note].filter(Boolean).join('; ');
  return {
    operationId: cause.operationId,
    name: def.name,
    method: def.method,
    ...made,
    kind: 'webhook',
    event: cause.event,
    ...(target.sign ? { sign: target.sign } : {}),
    ...(notes ? { note: notes } : {}),
  };
}

/** A stored record's value for the body: the answer (unwrapped from its envelope), or the id of a deleted one. */
function recordOf(binding: Binding, answer: unknown, params: Readonly<Record<string, string>>): unknown {
  const { resource } = binding;
  if (binding.action === 'remove') {
    const raw = resource.itemParam ? params[resource.itemParam] : undefined;
    if (raw === undefined || !resource.idField) return undefined;
    const id = resource.idType === 'integer' && /^-?\d+$/.test(raw) ? Number(raw) : raw;
    return { [resource.idField]: id };
  }
  const item = unwrap(answer, resource.envelope);
  // A create answering only the new id (`{"widgetID": …}`) still reports the record by its id field.
  if (binding.action !== 'create' || !resource.idField || !isObject(item) || resource.idField in item)
    return item;
  const id = createdIdOf(resource, { json: answer });
  return id === undefined ? item : { ...item, [resource.idField]: id };
}

/** The webhooks a resource action's state change sends (none for a read or a list, or when no URL is set). */
export function triggered(
  deps: { config: MockConfig; model: ResourceModel; spec: { document: OpenAPIV3_1.Document } },
  binding: Binding,
): WebhookDef[] {
  const event = eventOfAction(binding.action);
  if (!event) return [];
  const { config } = deps;
  const noUrl = config.webhookUrl === null;
  if (noUrl && !Object.values(config.webhooks).some((w) => w.url)) return [];
  return webhooksOf(deps).filter(
    (d) =>
      d.trigger?.resource === binding.resource.name &&
      d.trigger.event === event &&
      config.webhooks[d.name]?.enabled !== false &&
      (!noUrl || config.webhooks[d.name]?.url !== undefined),
  );
}

/** Pure: the webhooks a state change sends (a resource action answered 2xx): those whose trigger names it. */
export function decideStateWebhooks(
  deps: {
    config: MockConfig;
    model: ResourceModel;
    spec: { document: OpenAPIV3_1.Document; securitySchemes: OutgoingAuthSource['schemes'] };
  },
  binding: Binding,
  operationId: string,
  source: CallbackSource,
): CallbackSend[] {
  const event = eventOfAction(binding.action);
  const defs = triggered(deps, binding);
  if (!event || defs.length === 0) return [];
  const record = recordOf(binding, source.responseBody, source.params);
  const auth = { schemes: deps.spec.securitySchemes, credentials: deps.config.callbackCredentials };
  const out: CallbackSend[] = [];
  for (const def of defs) {
    const send = decideWebhook(
      def,
      deps.config,
      auth,
      { source: { ...source, responseBody: record }, wraps: binding.resource.itemSchema, event },
      { operationId, event: `${binding.resource.name} ${event}` },
    );
    if (send) out.push(send);
  }
  return out;
}

/** Pure: the generated body of a webhook sent on demand without one (no record: its example, else generated). */
export const onDemandSource = (): CallbackSource => ({
  method: 'POST',
  url: '',
  headers: {},
  query: {},
  params: {},
  requestBody: undefined,
  status: 0,
  responseBody: undefined,
  responseHeaders: {},
});

/**
 * Lines for the start banner: each webhook a state change sends (`petCreated: pets created (convention) -> URL`),
 * then how many are sent on demand only. A document without webhooks gives none, unless a webhook URL was given:
 * then one line says it sends nothing (the start goes on: a settings file may serve several documents).
 */
export function describeWebhooks(deps: {
  config: MockConfig;
  model: ResourceModel;
  spec: { document: OpenAPIV3_1.Document };
}): string[] {
  const defs = webhooksOf(deps);
  const { config } = deps;
  if (defs.length === 0)
    return config.webhookUrl === null
      ? []
      : [`none: the document has no webhooks, so --webhooks ${maskUrl(config.webhookUrl)} sends nothing`];
  const lines: string[] = [];
  let onDemand = 0;
  for (const d of defs) {
    const own = config.webhooks[d.name];
    const url = own?.url ?? config.webhookUrl;
    if (!d.trigger || own?.enabled === false || !url) {
      onDemand++;
      continue;
    }
    const signed =
      d.signatureHeader && (own?.secret ?? config.webhookSecret) ? `, signed ${d.signatureHeader}` : '';
    lines.push(
      `${d.name}: ${d.trigger.resource} ${d.trigger.event} (${d.trigger.by}${signed}) -> ${maskUrl(url)}`,
    );
  }
  if (onDemand)
    lines.push(
      `${onDemand} ${lines.length ? 'more ' : ''}sent on demand only: POST /_mock/webhooks/NAME${config.webhookUrl === null ? ' (needs --webhooks URL)' : ''}; GET /_mock/webhooks lists them`,
    );
  return lines;
}
