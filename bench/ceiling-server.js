#!/usr/bin/env node
'use strict';
// The bench's ceiling (issues 14 and 42): the simplest server that answers the bytes our mock answered for a
// workload. One plain node:http server per workload's answer, each on its own port, whose handler writes a
// status, a header list built once at start and a body Buffer built once at start: no routing, no lookup, no
// string built per request (an earlier ceiling keyed a table by method, path and key per request: work a bare
// server does not do, which flattered our ratio). An unread request body is discarded by Node itself.
// The answers file is what the bench captured from our mock just before (status, raw headers, body).
// Usage: node bench/ceiling-server.js --ports N[,N...] --answers FILE (one port per answer, in order)
const fs = require('node:fs');
const http = require('node:http');
const { Buffer } = require('node:buffer');

function option(name) {
  const i = process.argv.indexOf(name);
  return i === -1 ? undefined : process.argv[i + 1];
}

/** A server that writes one answer, ready-made, to every request. */
function serve(port, answer) {
  const body = Buffer.from(answer.body);
  const status = answer.status;
  const headers = [...answer.headers, 'Content-Length', String(body.length)];
  http
    .createServer(function ceiling(req, res) {
      res.writeHead(status, headers);
      res.end(body);
    })
    .listen(port, '127.0.0.1');
}

const answers = JSON.parse(fs.readFileSync(option('--answers'), 'utf8'));
const ports = String(option('--ports')).split(',').map(Number);
if (ports.length !== answers.length) throw new Error(`${answers.length} answers but ${ports.length} ports`);
answers.forEach((answer, i) => serve(ports[i], answer));
