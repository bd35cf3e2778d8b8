/**
 * Stage: check the request against the operation. Path parameters must decode; `Prefer: code=NNN` must name a
 * documented status; a request body must be small enough (413), JSON (415), UTF-8, parseable, valid against
 * the spec's compiled schema and then the mock's policy (400, message from ajv's structured errors).
 */
import type { ValidateFunction } from 'ajv';
import { formatAjvErrors, type OperationSpec } from '../../../spec/load';
import type { NewCategory } from '../../../spec/types';
import {
  apiError,
  invalidEncoding,
  invalidRequest,
  malformedJson,
  payloadTooLarge,
  unsupportedMediaType,
  type ErrorReply,
} from '../errors';
import type { MockRequest, Stage } from '../context';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Pure: decode every raw path parameter, or say which one is broken. */
export function decodeParams(raw: Record<string, string>): Record<string, string> | ErrorReply {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    try {
      out[name] = decodeURIComponent(value);
    } catch {
      return invalidEncoding(`path parameter ${name} is not valid percent-encoding`);
    }
  }
  return out;
}

/** Pure: the status asked for by `Prefer: code=NNN`, if it is one the operation documents. */
export function preferredStatus(
  prefer: string | undefined,
  operation: OperationSpec,
): number | undefined | ErrorReply {
  const m = prefer ? /(?:^|[,;\s])code=(\d{3})\b/.exec(prefer) : null;
  if (!m?.[1]) return undefined;
  if (!operation.responses.has(m[1])) {
    const documented = [...operation.responses.keys()].join(', ');
    return apiError(
      'invalid_prefer',
      `Prefer: code=${m[1]} is not a documented status of ${operation.operationId} (${documented})`,
    );
  }
  return Number(m[1]);
}

/** Pure: `application/json` or `application/*+json`, in UTF-8. */
export function isJsonContentType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const [type, ...params] = contentType
    .toLowerCase()
    .split(';')
    .map((s) => s.trim());
  if (type !== 'application/json' && !/^application\/[\w.+-]+\+json$/.test(type ?? '')) return false;
  const charset = params
    .find((p) => p.startsWith('charset='))
    ?.slice(8)
    .replace(/"/g, '');
  return charset === undefined || charset === 'utf-8' || charset === 'utf8';
}

/** Parse and check a NewCategory body: the contract's validator first, then the mock's policy. */
export function parseNewCategory(
  req: MockRequest,
  contract: ValidateFunction,
  policy: ValidateFunction,
  maxBodyBytes: number,
): NewCategory | ErrorReply {
  const contentType = req.headers['content-type'];
  if (req.bodyTooLarge) return payloadTooLarge(maxBodyBytes);
  if (req.body.length === 0 && !contentType)
    return invalidRequest('request body is required (a NewCategory object)');
  if (!isJsonContentType(contentType)) return unsupportedMediaType(contentType ?? '');
  if (req.body.length === 0) return invalidRequest('request body is required (a NewCategory object)');
  let text: string;
  try {
    text = utf8.decode(req.body);
  } catch {
    return invalidEncoding('request body is not valid UTF-8');
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    return malformedJson((err as Error).message);
  }
  if (!contract(data)) return invalidRequest(formatAjvErrors(contract.errors));
  // §2: the id is assigned by the service; the client does not send it.
  if (Object.prototype.hasOwnProperty.call(data, 'id'))
    return invalidRequest('/id is assigned by the service and must not be sent');
  if (!policy(data)) return invalidRequest(formatAjvErrors(policy.errors));
  return data as NewCategory;
}

const isError = (v: unknown): v is ErrorReply =>
  typeof v === 'object' && v !== null && 'body' in v && 'status' in v;

export const validate: Stage = function validate(ctx, deps) {
  const operation = ctx.operation;
  if (!operation) throw new Error('validate needs route to run first');
  const params = decodeParams(ctx.params ?? {});
  if (isError(params)) return { reply: params, ctx };
  const rawPrefer = ctx.req.headers.prefer;
  const prefer = preferredStatus(Array.isArray(rawPrefer) ? rawPrefer.join(', ') : rawPrefer, operation);
  if (isError(prefer)) return { reply: prefer, ctx };
  const next = { ...ctx, params, preferStatus: prefer };
  if (!operation.requestBody) return { next };
  const input = parseNewCategory(
    ctx.req,
    operation.requestBody.validate,
    deps.policy,
    deps.config.maxBodyBytes,
  );
  if (isError(input)) return { reply: input, ctx: next };
  return { next: { ...next, input } };
};
