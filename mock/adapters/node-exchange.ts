/**
 * One request on the node:http adapter, as one object: the request the pipeline reads (it is the `MockRequest`,
 * its body read on demand by a method) and what sending the answer needs. The adapter serves thousands of
 * requests a second: a record whose methods live on its prototype replaces the half-dozen closures and objects
 * each request used to build (the request, its body reader, send, deliver, the log entry's builder).
 */
import { performance } from 'node:perf_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { BodyRead, Deps, MockRequest } from '../core/context';
import type { EngineResult } from '../core/engine';
import type { RequestLogEntry } from '../core/log';

/** A request whose body has not fully arrived; `reading`: the pipeline reads it (and answers its failure). */
export interface BodyInFlight {
  reading: boolean;
}

/** How the exchange reads a body and drains one nobody read (mock/adapters/node-http.ts). */
export interface BodyIo {
  read(req: IncomingMessage, limit: number): Promise<BodyRead | null>;
  /** Drain an unread body after the answer; true when the answer must say `Connection: close`. */
  drain(req: IncomingMessage, limit: number): boolean;
}

/** Where the client address comes from: the socket, or a trusted proxy's X-Forwarded-For. */
export type AddressOf = (peer: string, forwardedFor: string | undefined) => string;

/** The path and the query (without `?`) of an origin-form target; undefined for any other form. */
function originForm(target: string): { path: string; query: string } | undefined {
  if (!target.startsWith('/')) return undefined;
  const q = target.indexOf('?');
  return q === -1 ? { path: target, query: '' } : { path: target.slice(0, q), query: target.slice(q + 1) };
}

export class NodeExchange implements MockRequest {
  readonly method: string;
  readonly path: string;
  readonly query: string;
  readonly headers: IncomingMessage['headers'];
  readonly httpVersion: string;
  /** Set once the pipeline asked for the body. */
  bodyRead = false;

  constructor(
    private readonly incoming: IncomingMessage,
    private readonly outgoing: ServerResponse,
    private readonly deps: Deps,
    private readonly io: BodyIo,
    target: { path: string; query: string },
    private readonly addressOf: AddressOf,
    /** Until its body has arrived, a parse error on this connection is about that body (issue 21). */
    private readonly inFlight: BodyInFlight | undefined,
    private readonly started: number,
    /** Marks the answer done on its connection (spec/http/connection.ts `begin`). */
    private readonly finished: () => void,
  ) {
    this.method = incoming.method ?? 'GET';
    this.path = target.path;
    this.query = target.query;
    this.headers = incoming.headers;
    this.httpVersion = incoming.httpVersion;
  }

  private address: string | undefined;

  /**
   * The client's address, worked out when a stage asks for it (an anonymous caller's subject): a request with a
   * key never reads the socket's peer or X-Forwarded-For.
   */
  get remoteAddress(): string {
    if (this.address === undefined) {
      const forwarded = this.incoming.headers['x-forwarded-for'];
      this.address = this.addressOf(
        this.incoming.socket.remoteAddress ?? 'unknown',
        Array.isArray(forwarded) ? forwarded.join(',') : forwarded,
      );
    }
    return this.address;
  }

  /** The request's target split, the common origin form without a new string for an absent query. */
  static target(url: string, split: (t: string) => { path: string; query: string }) {
    return originForm(url) ?? split(url);
  }

  readBody(limit: number): Promise<BodyRead | null> {
    this.bodyRead = true;
    if (this.inFlight) this.inFlight.reading = true;
    return this.io.read(this.incoming, limit);
  }

  /** The engine's answer, after an injected delay when there is one (a timer: no worker is held). */
  deliver(result: EngineResult): void {
    if (result.delayMs) void this.deps.sleep(result.delayMs).then(() => this.send(result));
    else this.send(result);
  }

  send(result: EngineResult): void {
    const req = this.incoming;
    const res = this.outgoing;
    // A body the pipeline never asked for (a refused caller, an operation without one) is drained, bounded;
    // whatever goes wrong in it (a malformed chunked body) never gets a second answer (issue 21).
    const unreadBody = !this.bodyRead && this.inFlight !== undefined;
    const closing = unreadBody && this.io.drain(req, this.deps.config.maxBodyBytes);
    if (!this.bodyRead && !unreadBody) req.resume();
    if (result.aborted) {
      this.finished();
      return;
    }
    if (result.error) this.logError(result);
    if (result.reset) {
      // An injected fault: the connection is reset (RST where the runtime can), no answer at all.
      const socket = req.socket as typeof req.socket & { resetAndDestroy?: () => void };
      if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
      else socket.destroy();
      this.logRequest(0, result);
      return;
    }
    const out = result.response;
    if (closing) res.shouldKeepAlive = false;
    res.writeHead(out.status, closing ? { ...out.headers, Connection: 'close' } : out.headers);
    if (result.stream) result.stream(res);
    else res.end(this.method === 'HEAD' ? undefined : out.body);
    this.logRequest(out.status, result);
  }

  private logError(result: EngineResult): void {
    this.deps.log.event('error', 'unhandled error in a stage', {
      method: this.method,
      path: this.path,
      caller: result.caller,
      error: result.error instanceof Error ? result.error.stack : String(result.error),
    });
  }

  private logRequest(status: number, result: EngineResult): void {
    // Nothing reads it (`--quiet` and no inspector): no entry, no clock read.
    if (this.deps.log.requests === false) return;
    const entry: RequestLogEntry = {
      method: this.method,
      path: this.path,
      status,
      ms: Math.round((performance.now() - this.started) * 100) / 100,
      caller: result.caller,
    };
    if (result.injected) entry.injected = result.injected;
    this.deps.log.request(entry);
  }
}
