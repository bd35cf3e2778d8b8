/**
 * Hostile clients on raw sockets, for the proxy's "the client's fault is not a 5xx" checks (issue 42): each
 * kind sends a malformed or unfinished request and then half-closes, stalls, or resets. Shared by
 * test/e2e/proxy-client-faults.test.ts (a bounded mix) and bench/proxy-malformed.ts (1,000 of them).
 */
import net from 'node:net';

/** How a malformed request is sent and how its client stops. */
export interface MalformedKind {
  name: string;
  /** The bytes sent (the request target's path is `{base}`-relative). */
  bytes: (base: URL) => string;
  /** After sending: half-close (`end`), wait for the proxy (`stall`), or reset (`reset`, no answer possible). */
  then: 'end' | 'stall' | 'reset';
  /** The statuses the client may be answered with (none for a reset). */
  expect: number[];
}

const head = (base: URL, method: string, lines: string[]) =>
  `${method} ${base.pathname}/categories HTTP/1.1\r\nHost: ${base.host}\r\nAuthorization: Bearer pro-key\r\n` +
  `Content-Type: application/json\r\n${lines.map((l) => `${l}\r\n`).join('')}\r\n`;

const SHORT = '{"name":"sh'; // 11 bytes
const HUGE = '10000000000'; // 10^10

export const MALFORMED_KINDS: readonly MalformedKind[] = [
  {
    name: 'short body, half-close',
    bytes: (b) => head(b, 'POST', ['Content-Length: 100']) + SHORT,
    then: 'end',
    expect: [400],
  },
  {
    name: 'short body, stall',
    bytes: (b) => head(b, 'POST', ['Content-Length: 100']) + SHORT,
    then: 'stall',
    expect: [408],
  },
  {
    name: 'short body, reset',
    bytes: (b) => head(b, 'POST', ['Content-Length: 100']) + SHORT,
    then: 'reset',
    expect: [],
  },
  {
    name: 'huge length, half-close',
    bytes: (b) => head(b, 'POST', [`Content-Length: ${HUGE}`]) + SHORT,
    then: 'end',
    expect: [400, 413],
  },
  {
    name: 'huge length, stall',
    bytes: (b) => head(b, 'POST', [`Content-Length: ${HUGE}`]) + SHORT,
    then: 'stall',
    expect: [408, 413],
  },
  {
    name: 'huge length, reset',
    bytes: (b) => head(b, 'POST', [`Content-Length: ${HUGE}`]) + SHORT,
    then: 'reset',
    // The mock may refuse the length (413) before the client's reset arrives.
    expect: [413],
  },
  {
    name: 'bad chunk size',
    bytes: (b) => head(b, 'POST', ['Transfer-Encoding: chunked']) + 'zz\r\nab\r\n0\r\n\r\n',
    then: 'stall',
    expect: [400],
  },
  {
    name: 'chunked, half-close mid-chunk',
    bytes: (b) => head(b, 'POST', ['Transfer-Encoding: chunked']) + '20\r\n{"na',
    then: 'end',
    expect: [400],
  },
  {
    name: 'chunked, stall mid-chunk',
    bytes: (b) => head(b, 'POST', ['Transfer-Encoding: chunked']) + '20\r\n{"na',
    then: 'stall',
    expect: [408],
  },
  {
    name: 'two lengths',
    bytes: (b) => head(b, 'POST', ['Content-Length: 2', 'Content-Length: 3']) + '{}',
    then: 'stall',
    expect: [400],
  },
  {
    name: 'headers too large',
    bytes: (b) => head(b, 'GET', [`X-Big: ${'a'.repeat(20_000)}`]),
    then: 'stall',
    expect: [431],
  },
  {
    name: 'half-sent headers, half-close',
    bytes: (b) => head(b, 'GET', []).slice(0, 40),
    then: 'end',
    expect: [400],
  },
];

/** What one hostile client saw: the status it was answered with (0: none) and whether it was the error shape. */
export interface MalformedOutcome {
  kind: string;
  status: number;
  errorShape: boolean;
  raw: string;
}

/** Send one malformed request of `kind` to `base`; never hangs (`capMs`). */
export function sendMalformed(base: URL, kind: MalformedKind, capMs = 10_000): Promise<MalformedOutcome> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(Number(base.port), base.hostname, () => {
      socket.write(kind.bytes(base));
      if (kind.then === 'end') socket.end();
      // A reset after the bytes left: the proxy has begun the request when the client vanishes.
      if (kind.then === 'reset') setTimeout(() => socket.resetAndDestroy(), 20);
    });
    const timer = setTimeout(() => socket.destroy(), capMs);
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      const raw = Buffer.concat(chunks).toString('latin1');
      resolve({
        kind: kind.name,
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1] ?? 0),
        errorShape: isErrorShape(raw),
        raw,
      });
    });
  });
}

/** An answer whose body is the error shape (code, message, status) sent as application/json. */
function isErrorShape(raw: string): boolean {
  const at = raw.indexOf('\r\n\r\n');
  if (at === -1 || !/\r\ncontent-type: *application\/(problem\+)?json/i.test(raw.slice(0, at))) return false;
  try {
    const body = JSON.parse(raw.slice(at + 4)) as Record<string, unknown>;
    return (
      typeof body.code === 'string' && typeof body.message === 'string' && typeof body.status === 'number'
    );
  } catch {
    return false;
  }
}

/** `count` requests cycling through the kinds, `parallel` at a time; every outcome. */
export async function sendMalformedMix(base: URL, count: number, parallel = 20): Promise<MalformedOutcome[]> {
  const out: MalformedOutcome[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const kind = MALFORMED_KINDS[next++ % MALFORMED_KINDS.length] as MalformedKind;
      out.push(await sendMalformed(base, kind));
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return out;
}
