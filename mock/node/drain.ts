/**
 * The graceful stop of the mock's node:http server (what SIGTERM does). Node's `server.close()` closes the
 * connections it takes for idle, and it takes for idle a connection whose answer was ended but is still being
 * written: a large list to a slow reader (`res.end()` returned, megabytes wait in the socket's buffer) was cut a
 * moment after the signal. So the mock goes by its own count of answers in flight (spec/http/connection.ts, kept
 * by the node adapter): one is in flight from its request until its last byte is handed to the kernel (the
 * response's `close`), and only a connection with none in flight is idle. Nothing is counted here per request.
 */
import type { RequestListener, Server } from 'node:http';
import type { Socket } from 'node:net';
import { answersDue, whenIdle } from '../../spec/http/connection';

/** How a drain ended: `drained` when every answer finished in time, else how many were cut at the limit. */
export interface DrainOutcome {
  drained: boolean;
  cut: number;
}

export interface ConnectionTracker {
  /** `handler` (the node adapter, which counts its answers); once draining, each answer says `Connection: close`. */
  counted(handler: RequestListener): RequestListener;
  /**
   * Refuse new connections, close the idle ones, and let every answer in flight (one still being received, one
   * still being written) finish for up to `drainMs`; then cut the rest.
   */
  drain(drainMs: number): Promise<DrainOutcome>;
}

/** Track the connections of `server`; the answers in flight on each are the adapter's count. */
export function trackConnections(server: Server): ConnectionTracker {
  const sockets = new Set<Socket>();
  let draining = false;
  const busy = (): boolean => {
    for (const socket of sockets) if (answersDue(socket) > 0) return true;
    return false;
  };
  const closeIdle = (): void => {
    for (const socket of sockets) if (answersDue(socket) === 0) socket.destroy();
  };
  // Whoever calls it (http.Server#close among them) closes only connections with no answer in flight.
  server.closeIdleConnections = closeIdle;
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  return {
    counted: (handler) =>
      function countedRequest(req, res) {
        if (draining) res.shouldKeepAlive = false;
        handler(req, res);
      },
    drain: async (drainMs) => {
      draining = true;
      if (server.listening) server.close();
      closeIdle();
      let timer: NodeJS.Timeout | undefined;
      const drained = await new Promise<boolean>((resolve) => {
        if (!busy()) return resolve(true);
        // After the response's 'close' its bytes are in the kernel, which still delivers them once the socket is
        // closed: each connection goes as its last answer is done, the drain ends with the last of them.
        for (const socket of [...sockets])
          whenIdle(socket, () => {
            socket.destroy();
            if (!busy()) resolve(true);
          });
        timer = setTimeout(() => resolve(false), drainMs);
      });
      clearTimeout(timer);
      let cut = 0;
      for (const socket of sockets) {
        cut += answersDue(socket);
        socket.destroy();
      }
      return { drained, cut };
    },
  };
}
