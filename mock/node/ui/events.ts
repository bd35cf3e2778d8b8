/**
 * The inspector's live feed: server-sent events on one long request (so an open inspector costs one request
 * per page view, not one a second). Sends the snapshot at once, then again only when it changed (looked at once
 * a tick, so quota windows that roll over show up too), with a comment line now and then to keep proxies open.
 *
 * Bounded: at most `max` streams at once (more get a 503 Error); each ends after `lifetimeMs` (the page
 * reconnects by itself); a client that stops reading is dropped once its buffer stays full for `stallMs` or
 * holds more than `maxBufferedBytes`, and while it is full nothing more is queued for it.
 */
import { apiError } from '../../core/errors';
import type { EventSink, Reply } from '../../core/context';
import type { NodeDeps as Deps, StreamLimits, StreamState } from '../deps';

export type { StreamLimits, StreamState };
import { inspectorData } from './inspector-data';

export const DEFAULT_STREAM_LIMITS: Readonly<StreamLimits> = Object.freeze({
  max: 20,
  lifetimeMs: 10 * 60_000,
  stallMs: 10_000,
  maxBufferedBytes: 1024 * 1024,
  tickMs: 1000,
  recordsShown: 100,
});

export const createStreamState = (limits: Partial<StreamLimits> = {}): StreamState => ({
  open: 0,
  limits: { ...DEFAULT_STREAM_LIMITS, ...limits },
});

/** The snapshot as JSON, built at most once per half tick for all streams of these deps. */
function snapshot(state: StreamState, deps: Deps): Promise<string> {
  const now = Date.now();
  const shared = state.shared;
  if (shared && shared.deps === deps && now - shared.atMs < state.limits.tickMs / 2) return shared.data;
  const data = inspectorData(deps, state.limits.recordsShown).then((d) => JSON.stringify(d));
  state.shared = { atMs: now, deps, data };
  data.catch(() => (state.shared = undefined));
  return data;
}

const KEEPALIVE_TICKS = 15;

/** A streamed reply, or a 503 Error when `max` streams are open; `current` gives the deps serving now. */
export function inspectorEvents(current: () => Deps, state: StreamState): Reply {
  if (state.open >= state.limits.max) {
    return apiError(
      'service_unavailable',
      `${state.limits.max} inspector streams are open already (the most at once); close one or retry later`,
      { 'Retry-After': '10' },
    );
  }
  return {
    status: 200,
    headers: {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Accel-Buffering': 'no',
    },
    stream: (out) => streamSnapshots(out, current, state),
  };
}

/** End every open stream now (a graceful stop: the page reconnects to whichever mock serves next). */
export function endStreams(state: StreamState): void {
  for (const end of [...(state.enders ?? [])]) end();
}

/** Write snapshots to `out` until it closes, its lifetime ends, or it stops reading. */
export function streamSnapshots(out: EventSink, current: () => Deps, state: StreamState): void {
  const limits = state.limits;
  state.open++;
  let last = '';
  let quiet = 0;
  let busy = false;
  let closed = false;
  let fullSince: number | undefined;
  const close = (): void => {
    if (closed) return;
    closed = true;
    state.open--;
    state.enders?.delete(end);
    clearInterval(timer);
    clearTimeout(lifetime);
  };
  const end = (): void => {
    close();
    out.end();
  };
  (state.enders ??= new Set()).add(end);
  const drop = (): void => {
    close();
    if (out.destroy) out.destroy();
    else out.end();
  };
  const send = (chunk: string): void => {
    if (!out.write(chunk)) fullSince ??= Date.now();
    if ((out.writableLength ?? 0) > limits.maxBufferedBytes) drop();
  };
  const tick = async (): Promise<void> => {
    if (busy || closed) return;
    if (fullSince !== undefined) {
      // Nothing more is queued for a client that is not reading; one that never catches up is dropped.
      if (Date.now() - fullSince >= limits.stallMs) drop();
      return;
    }
    busy = true;
    try {
      const data = await snapshot(state, current());
      if (closed) return;
      if (data !== last) {
        send(`data: ${data}\n\n`);
        last = data;
        quiet = 0;
      } else if (++quiet % KEEPALIVE_TICKS === 0) send(': keep-alive\n\n');
    } catch (err) {
      if (!closed) send(`event: problem\ndata: ${JSON.stringify((err as Error).message)}\n\n`);
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void tick(), limits.tickMs);
  timer.unref();
  const lifetime = setTimeout(end, limits.lifetimeMs);
  lifetime.unref();
  out.on('close', close);
  // The server allows half-open connections (a client may send its request, half-close and still read a finite
  // answer); an endless live stream has no such reader: the client's end of the connection ends the stream.
  const socket = (out as { req?: { socket?: { once(e: 'end', f: () => void): unknown } } }).req?.socket;
  socket?.once('end', drop);
  out.on('drain', () => (fullSince = undefined));
  send('retry: 2000\n\n');
  void tick();
}
