/**
 * The inspector's live feed: server-sent events on one long request (so an open inspector costs one request
 * per page view, not one a second). Sends the snapshot at once, then again whenever it changes (looked at once
 * a second, so quota windows that roll over show up too), with a comment line now and then to keep proxies open.
 */
import type { EventSink, Reply } from '../../core/context';
import type { NodeDeps as Deps } from '../deps';
import { inspectorData } from './inspector-data';

export const TICK_MS = 1000;
const KEEPALIVE_TICKS = 15;

/** A streamed reply; `current` gives the deps serving now, so a --watch reload shows without a reconnect. */
export function inspectorEvents(current: () => Deps): Reply {
  return {
    status: 200,
    headers: {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Accel-Buffering': 'no',
    },
    stream: (out) => streamSnapshots(out, current),
  };
}

function streamSnapshots(out: EventSink, current: () => Deps): void {
  let last = '';
  let ticks = 0;
  let busy = false;
  const tick = async () => {
    if (busy) return;
    busy = true;
    try {
      const data = JSON.stringify(await inspectorData(current()));
      if (data !== last) out.write(`data: ${data}\n\n`);
      else if (++ticks % KEEPALIVE_TICKS === 0) out.write(': keep-alive\n\n');
      last = data;
    } catch (err) {
      out.write(`event: problem\ndata: ${JSON.stringify((err as Error).message)}\n\n`);
    } finally {
      busy = false;
    }
  };
  out.write('retry: 2000\n\n');
  const timer = setInterval(() => void tick(), TICK_MS);
  timer.unref();
  out.on('close', () => clearInterval(timer));
  void tick();
}
