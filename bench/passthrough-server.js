#!/usr/bin/env node
'use strict';
// The proxy bench's baseline (issue 23): the simplest node:http pass-through proxy. Every request is forwarded
// to the upstream on a kept-alive connection with its headers as they came, and the answer piped back as it
// came. No judging, no header rewriting, nothing parsed.
// Usage: node bench/passthrough-server.js --port N --upstream-port M
const http = require('node:http');

function option(name) {
  const i = process.argv.indexOf(name);
  return i === -1 ? undefined : process.argv[i + 1];
}

const upstreamPort = Number(option('--upstream-port'));
const agent = new http.Agent({ keepAlive: true });

http
  .createServer(function passThrough(req, res) {
    const options = { host: '127.0.0.1', port: upstreamPort, path: req.url, method: req.method };
    const up = http.request({ ...options, headers: req.headers, agent }, (answer) => {
      res.writeHead(answer.statusCode || 502, answer.headers);
      answer.pipe(res);
    });
    up.on('error', () => {
      res.writeHead(502, { 'Content-Type': 'application/json' });
      res.end('{"code":"bad_gateway","message":"upstream unreachable","status":502}');
    });
    req.pipe(up);
  })
  .listen(Number(option('--port')), '127.0.0.1');
