/**
 * The graceful stop of the mock's node:http server (what SIGTERM does). Node's `server.close()` closes the
 * connections it takes for idle, and it takes for idle a connection whose answer was ended but is still being
 * written: a large list to a slow reader (`res.end()` returned, megabytes wait in the socket's buffer) was cut a
 * moment after the signal. So the mock counts its answers itself: one is in flight from its request until its
 * last byte is handed to the kernel (the response's `close`), and only a connection with none in flight is idle.
 */
import type { RequestListener, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** How a drain ended: `drained` when every answer finished in time, else how many were cut at the limit. */
export interface DrainOutcome {
  drained: boolean;
  cut: number;
}

export interface ConnectionTracker {
  /** `handler` with its answers counted; once draining, each answer says `Connection: close`. */
  counted(handler: RequestListener): RequestListener;
  /**
   * Refuse new connections, close the idle ones, and let every answer in flight (one still being received, one
   * still being written) finish for up to `drainMs`; then cut the rest.
   */
  drain(drainMs: number): Promise<DrainOutcome>;
}

/** Track the connections of `server` and the answers in flight on each. */
export function trackConnections(server: Server): ConnectionTracker {
  const inFlight = new Map<Socket, number>();
  let draining = false;
  let settled: (() => void) | null = null;
  const busy = (): boolean => {
    for (const n of inFlight.values()) if (n > 0) return true;
    return false;
  };
  const closeIdle = (): void => {
    for (const [socket, n] of inFlight) if (n === 0) socket.destroy();
  };
  // Whoever calls it (http.Server#close among them) closes only connections with no answer in flight.
  server.closeIdleConnections = closeIdle;
  server.on('connection', (socket: Socket) => {
    inFlight.set(socket, 0);
    socket.once('close', () => inFlight.delete(socket));
  });
  // After the response's 'close' its bytes are in the kernel, which still delivers them once the socket is closed.
  const answered = (socket: Socket): void => {
    const n = (inFlight.get(socket) ?? 1) - 1;
    if (inFlight.has(socket)) inFlight.set(socket, n);
    if (!draining) return;
    if (n === 0) socket.destroy();
    if (settled && !busy()) settled();
  };
  // One function for every response (no closure per request); a response emits 'close' once.
  function answerClosed(this: ServerResponse): void {
    answered(this.req.socket as Socket);
  }
  return {
    counted: (handler) =>
      function countedRequest(req, res) {
        const socket = req.socket;
        inFlight.set(socket, (inFlight.get(socket) ?? 0) + 1);
        res.on('close', answerClosed);
        if (draining) res.shouldKeepAlive = false;
        handler(req, res);
      },
    drain: async (drainMs) => {
      draining = true;
      if (server.listening) server.close();
      closeIdle();
      let timer: NodeJS.Timeout | undefined;
      const drained = await new Promise<boolean>((resolve) => {
        settled = () => resolve(true);
        if (!busy()) resolve(true);
        timer = setTimeout(() => resolve(false), drainMs);
      });
      clearTimeout(timer);
      settled = null;
      let cut = 0;
      for (const [socket, n] of inFlight) {
        cut += n;
        socket.destroy();
      }
      return { drained, cut };
    },
  };
}
