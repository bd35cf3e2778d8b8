/**
 * The ceiling: a bare node:http server with no logic that answers the bytes our mock answered for each
 * workload (captured by the bench just before; status, headers and body). It reads the request body like any
 * server must, then looks the answer up by method, Authorization and body.
 * Usage: node --import tsx bench/ceiling-server.ts --port N --answers FILE
 */
import fs from 'node:fs';
import http from 'node:http';
import { parseArgs } from 'node:util';

export interface CannedAnswer {
  method: string;
  authorization: string;
  requestBody: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The lookup key of a request: what tells the bench's workloads apart. */
export const answerKey = (method: string, authorization: string, body: string): string =>
  `${method}\n${authorization}\n${body}`;

function main(): void {
  const { values } = parseArgs({ options: { port: { type: 'string' }, answers: { type: 'string' } } });
  const canned = JSON.parse(fs.readFileSync(values.answers ?? '', 'utf8')) as CannedAnswer[];
  const table = new Map(
    canned.map((a) => [
      answerKey(a.method, a.authorization, a.requestBody),
      { status: a.status, headers: a.headers, body: Buffer.from(a.body) },
    ]),
  );
  const notFound = { status: 404, headers: { 'Content-Type': 'application/json' }, body: Buffer.from('{}') };
  http
    .createServer(function ceiling(req, res) {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = chunks.length === 0 ? '' : Buffer.concat(chunks).toString();
        const a = table.get(answerKey(req.method ?? '', req.headers.authorization ?? '', body)) ?? notFound;
        res.writeHead(a.status, { ...a.headers, 'Content-Length': a.body.length });
        res.end(a.body);
      });
    })
    .listen(Number(values.port), '127.0.0.1');
}

if (require.main === module) main();
