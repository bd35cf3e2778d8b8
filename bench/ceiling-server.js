#!/usr/bin/env node
'use strict';
// The bench's ceiling (issue 14): the simplest server that answers the bytes our mock answered for each
// workload. Plain `node` and plain JavaScript (no TypeScript loader in its start or memory); every answer's
// header list and body Buffer is built once at start; a request without a body gets no stream listeners.
// The answers file is what the bench captured from our mock just before (status, raw headers, body), keyed
// by method, path, Authorization and request body.
// Usage: node bench/ceiling-server.js --port N --answers FILE
const fs = require('node:fs');
const http = require('node:http');
const { Buffer } = require('node:buffer');

function option(name) {
  const i = process.argv.indexOf(name);
  return i === -1 ? undefined : process.argv[i + 1];
}

const keyOf = (method, path, authorization, body) => `${method} ${path}\n${authorization}\n${body}`;

/** One canned answer, ready to write: a flat [name, value, ...] header list and the body bytes. */
function prepared(status, headerPairs, bodyText) {
  const body = Buffer.from(bodyText);
  return { status, headers: [...headerPairs, 'Content-Length', String(body.length)], body };
}

const table = new Map();
for (const a of JSON.parse(fs.readFileSync(option('--answers'), 'utf8'))) {
  table.set(keyOf(a.method, a.path, a.authorization, a.requestBody), prepared(a.status, a.headers, a.body));
}
const NOT_FOUND = prepared(404, ['Content-Type', 'application/json'], '{}');

function send(res, answer) {
  res.writeHead(answer.status, answer.headers);
  res.end(answer.body);
}

http
  .createServer(function ceiling(req, res) {
    const authorization = req.headers.authorization || '';
    // No Content-Length and no Transfer-Encoding: no body (RFC 9112 §6.3), so no listeners either.
    if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) {
      send(res, table.get(keyOf(req.method, req.url, authorization, '')) || NOT_FOUND);
      return;
    }
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      send(res, table.get(keyOf(req.method, req.url, authorization, body)) || NOT_FOUND);
    });
  })
  .listen(Number(option('--port')), '127.0.0.1');
