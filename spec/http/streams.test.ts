import type { OpenAPIV3_1 } from 'openapi-types';
import { compileSpec, documentedResponse, type LoadedSpec } from '../load';
import type { Exchange } from '../report/types';
import { checkResponses } from './response-checks';
import {
  readEvents,
  readItems,
  streamKindOf,
  wholeItems,
  writeItems,
  type StreamSpec,
} from './stream-format';
import { itemCount, MAX_STREAM_ITEMS, streamChunks, streamFor, streamItems, streamProblem } from './streams';

const Todo = {
  type: 'object',
  required: ['id', 'title'],
  properties: { id: { type: 'integer', minimum: 1 }, title: { type: 'string', minLength: 1 } },
};
const ok = (description: string, content: Record<string, unknown>) => ({ '200': { description, content } });
const document = {
  openapi: '3.2.0',
  info: { title: 'Streams', version: '1' },
  paths: {
    // 3.2's own SSE example: the event object, `data` a JSON object.
    '/todos/events': {
      get: {
        operationId: 'todoEvents',
        responses: ok('events', {
          'text/event-stream': {
            itemSchema: {
              type: 'object',
              required: ['data', 'event'],
              properties: {
                data: Todo,
                event: { type: 'string', enum: ['created', 'updated'] },
                id: { type: 'string' },
                retry: { type: 'integer', minimum: 0 },
              },
            },
          },
        }),
      },
    },
    // §4.14.4: `data` a string whose content is JSON (`contentMediaType` + `contentSchema`).
    '/encoded': {
      get: {
        operationId: 'encoded',
        responses: ok('events', {
          'text/event-stream': {
            itemSchema: {
              type: 'object',
              required: ['data'],
              properties: {
                data: { type: 'string', contentMediaType: 'application/json', contentSchema: Todo },
              },
            },
          },
        }),
      },
    },
    // The generic event of §4.14.4: `data` text.
    '/text': {
      get: {
        operationId: 'text',
        responses: ok('events', {
          'text/event-stream': {
            itemSchema: {
              type: 'object',
              required: ['data'],
              properties: { data: { type: 'string', minLength: 3 }, event: { type: 'string' } },
            },
          },
        }),
      },
    },
    // An item schema naming no SSE field: the schema of the JSON in `data`.
    '/payloads': {
      get: {
        operationId: 'payloads',
        responses: ok('events', { 'text/event-stream': { itemSchema: Todo } }),
      },
    },
    // The 3.2 specification's typed stream: the generic event (through allOf), then a oneOf by `event`.
    '/typed': {
      get: {
        operationId: 'typed',
        responses: ok('events', {
          'text/event-stream': {
            itemSchema: {
              allOf: [
                {
                  type: 'object',
                  required: ['data'],
                  properties: {
                    data: { type: 'string' },
                    event: { type: 'string' },
                    id: { type: 'string' },
                    retry: { type: 'integer', minimum: 0 },
                  },
                },
              ],
              required: ['event'],
              oneOf: [
                { properties: { event: { const: 'addString' } } },
                { properties: { event: { const: 'addInt64' }, data: { format: 'int64' } } },
              ],
            },
          },
        }),
      },
    },
    '/log': {
      get: {
        operationId: 'log',
        responses: ok('lines', {
          'application/jsonl': { itemSchema: Todo },
          'application/json-seq': { itemSchema: Todo },
        }),
      },
    },
    // 3.1's way: the whole stream as an array schema.
    '/excerpt': {
      get: {
        operationId: 'excerpt',
        responses: ok('lines', {
          'application/x-ndjson': { schema: { type: 'array', items: Todo, maxItems: 2 } },
        }),
      },
    },
    '/examples': {
      get: {
        operationId: 'examples',
        responses: ok('lines', {
          'application/jsonl': {
            itemSchema: Todo,
            example: '{"id": 7, "title": "Hi!"}\n{"id": 8, "title": "Bye!"}\n',
          },
        }),
      },
    },
  },
} as unknown as OpenAPIV3_1.Document;

const spec = compileSpec('streams.yaml', document, true) as LoadedSpec;
const streamOf = (operationId: string, type?: string): StreamSpec => {
  const streams = documentedResponse(spec.byId.get(operationId)!, 200)?.streams ?? [];
  const found = type ? streams.find((s) => s.mediaType === type) : streams[0];
  if (!found) throw new Error(`no stream on ${operationId}`);
  return found;
};
const exchange = (operationId: string, type: string, body: string): Exchange => ({
  request: { method: 'GET', url: '/x', headers: {} },
  response: { status: 200, headers: { 'content-type': type }, body },
  operationId,
  receivedAt: Date.now(),
});
const bodySchema = (ex: Exchange) =>
  checkResponses(spec, [ex]).find((f) => f.ruleId === 'response.body-schema');

describe('the mock streams valid items, framed by their media type', () => {
  it('SSE: event, id and data lines, a blank line after each event, `data` JSON where the schema is an object', () => {
    const stream = streamOf('todoEvents');
    const chunks = streamChunks(stream, 3);
    expect(chunks).toHaveLength(3);
    for (const chunk of chunks) {
      expect(chunk).toMatch(/^event: (created|updated)\n(id: .*\n)?(retry: \d+\n)?data: \{.*\}\n\n$/);
      const data = JSON.parse(/^data: (.*)$/m.exec(chunk)![1]!) as { id: number; title: string };
      expect(Number.isInteger(data.id) && data.title.length > 0).toBe(true);
    }
    expect(streamProblem(stream, chunks.join(''))).toBeUndefined();
  });

  it('SSE: `data` with contentMediaType JSON is JSON text valid against its contentSchema', () => {
    const stream = streamOf('encoded');
    expect(stream.data).toBe('json');
    const [chunk] = streamChunks(stream, 1);
    const data = JSON.parse(/^data: (.*)$/m.exec(chunk!)![1]!) as Record<string, unknown>;
    expect(data).toEqual(expect.objectContaining({ id: expect.any(Number), title: expect.any(String) }));
  });

  it('SSE: text data is written as it is, one data line per line of it', () => {
    const stream = streamOf('text');
    expect(stream.data).toBe('text');
    expect(writeItems(stream, [{ data: 'two\nlines', event: 'note' }])).toEqual([
      'event: note\ndata: two\ndata: lines\n\n',
    ]);
    expect(readEvents(writeItems(stream, [{ data: ' x\ny ' }])[0]!)).toEqual([{ data: ' x\ny ' }]);
  });

  it('SSE: an item schema naming no SSE field describes the JSON in `data`', () => {
    const stream = streamOf('payloads');
    const [chunk] = streamChunks(stream, 1);
    expect(chunk).toMatch(/^data: \{"id":\d+,"title":".+"\}\n\n$/);
    expect(streamProblem(stream, 'data: {"id": 0, "title": "x"}\n\n')).toBe(
      'text/event-stream item 1 of 1: /data/id must be >= 1',
    );
  });

  it("SSE: the 3.2 specification's typed stream (the generic event through allOf, a oneOf by event) is an event", () => {
    const stream = streamOf('typed');
    expect(stream.data).toBe('text');
    expect(
      streamProblem(
        stream,
        'event: addString\ndata: This data is formatted\ndata: across two lines\nretry: 5\n\n',
      ),
    ).toBeUndefined();
    expect(streamProblem(stream, 'data: no event\n\n')).toMatch(
      /^text\/event-stream item 1 of 1: .*\/event is required/,
    );
    expect(streamProblem(stream, streamChunks(stream, 3).join(''))).toBeUndefined();
  });

  it('JSON Lines and JSON text sequences: one value per line, or after a record separator', () => {
    const jsonl = streamChunks(streamOf('log', 'application/jsonl'), 3);
    expect(jsonl).toHaveLength(3);
    for (const line of jsonl)
      expect(JSON.parse(line)).toEqual(expect.objectContaining({ id: expect.any(Number) }));
    const seq = streamChunks(streamOf('log', 'application/json-seq'), 2);
    for (const item of seq) expect(item.startsWith('\x1e{') && item.endsWith('}\n')).toBe(true);
    expect(readItems('json-seq', seq.join(''))).toHaveLength(2);
  });

  it('3.1 documents: an array schema of an x-ndjson answer gives its items, its maxItems bounds the count', () => {
    const stream = streamOf('excerpt');
    expect(streamChunks(stream, 5)).toHaveLength(2);
    expect(streamProblem(stream, '{"id":1,"title":"a"}\n{"id":"2","title":"b"}\n')).toBe(
      'application/x-ndjson item 2 of 2: /id must be integer',
    );
  });

  it("the document's example is streamed as written", () => {
    expect(streamItems(streamOf('examples'), 3)).toEqual([
      { id: 7, title: 'Hi!' },
      { id: 8, title: 'Bye!' },
    ]);
  });

  it('the count is bounded whatever is asked', () => {
    expect(itemCount({}, 10_000)).toBe(MAX_STREAM_ITEMS);
    expect(itemCount({ minItems: 2 }, 0)).toBe(2);
    expect(streamChunks(streamOf('log', 'application/jsonl'), 1e9)).toHaveLength(MAX_STREAM_ITEMS);
  });
});

describe('a stream is judged item by item (runner, proxy and --judge-har alike)', () => {
  it('a valid SSE stream passes; an invalid event fails naming the item', () => {
    const good = 'event: created\nid: 1\ndata: {"id": 1, "title": "a"}\n\n';
    expect(bodySchema(exchange('todoEvents', 'text/event-stream', good.repeat(2)))).toEqual({
      ruleId: 'response.body-schema',
      outcome: 'pass',
    });
    const bad = `${good}: a comment\nevent: deleted\ndata: {"id": 2, "title": ""}\n\n${good}`;
    expect(bodySchema(exchange('todoEvents', 'text/event-stream', bad))).toMatchObject({
      outcome: 'fail',
      problem: expect.stringMatching(
        /^todoEvents 200: text\/event-stream item 2 of 3: \/data\/title must NOT have fewer/,
      ),
    });
  });

  it('data that is not the JSON the schema says, and contentSchema, fail naming the item', () => {
    expect(streamProblem(streamOf('todoEvents'), 'event: created\ndata: hello\n\n')).toBe(
      'text/event-stream item 1 of 1: data is not JSON ("hello")',
    );
    expect(streamProblem(streamOf('encoded'), 'data: {"id": 1}\n\n')).toBe(
      'text/event-stream item 1 of 1: /data/title is required',
    );
  });

  it('a JSON Lines body with a bad line fails naming it, and counts the others', () => {
    const stream = streamOf('log', 'application/jsonl');
    expect(streamProblem(stream, '{"id":1,"title":"a"}\nnope\n{"id":-1,"title":"b"}\n')).toBe(
      'application/jsonl item 2 of 3: not JSON ("nope") (and 1 more item)',
    );
    expect(bodySchema(exchange('log', 'application/jsonl', '{"id":1,"title":"a"}\n'))).toMatchObject({
      outcome: 'pass',
    });
  });

  it('a stream of no item yet is a stream (an event source quiet for the whole window)', () => {
    for (const body of ['', ': keep-alive\n\n']) {
      const found = checkResponses(spec, [exchange('todoEvents', 'text/event-stream', body)]);
      expect(found.filter((f) => f.outcome === 'fail')).toEqual([]);
    }
    const findings = checkResponses(spec, [exchange('todoEvents', 'text/event-stream', '')]);
    expect(findings.find((f) => f.ruleId === 'response.json')).toEqual({
      ruleId: 'response.json',
      outcome: 'pass',
    });
    expect(
      checkResponses(spec, [exchange('todoEvents', 'application/json', '{}')]).find(
        (f) => f.ruleId === 'response.json',
      ),
    ).toMatchObject({
      outcome: 'fail',
      problem: 'Content-Type is application/json, expected text/event-stream',
    });
  });

  it('an answer in a type the response documents as a stream is read as one; others are not', () => {
    const streams = documentedResponse(spec.byId.get('excerpt')!, 200)?.streams;
    expect(streamFor(streams, 'application/x-ndjson; charset=utf-8')?.kind).toBe('jsonl');
    // The same framing under another name is not the documented type (response.json says so).
    expect(streamFor(streams, 'application/jsonl')).toBeUndefined();
    expect(
      checkResponses(spec, [exchange('excerpt', 'application/jsonl', '{"id":1,"title":"a"}\n')]).find(
        (f) => f.ruleId === 'response.json',
      ),
    ).toMatchObject({
      outcome: 'fail',
      problem: 'Content-Type is application/jsonl, expected application/x-ndjson',
    });
    expect(streamFor(streams, 'application/json')).toBeUndefined();
    expect(streamKindOf('application/geo+json-seq')).toBe('json-seq');
  });
});

describe('SSE is parsed as the HTML standard says', () => {
  it.each([
    ['CRLF and CR line ends', 'data: a\r\n\r\ndata: b\r\r', [{ data: 'a' }, { data: 'b' }]],
    ['comments and unknown fields ignored', ': hi\nfoo: bar\ndata: a\n\n', [{ data: 'a' }]],
    ['one leading space dropped, no more', 'data:  a\ndata:b\n\n', [{ data: ' a\nb' }]],
    [
      'retry only when digits',
      'retry: 10\ndata: a\n\nretry: x\ndata: b\n\n',
      [{ retry: 10, data: 'a' }, { data: 'b' }],
    ],
    ['an event without data is not dispatched', 'event: ping\n\ndata: a\n\n', [{ data: 'a' }]],
    ['an unterminated last event is discarded', 'data: a\n\ndata: b\n', [{ data: 'a' }]],
    ['a field without a colon is an empty value', 'data\n\n', [{ data: '' }]],
  ])('%s', (_name, body, events) => {
    expect(readEvents(body)).toEqual(events);
  });
});

describe('a stream cut off mid-way keeps its whole items', () => {
  it.each([
    ['sse', 'data: a\n\ndata: b\r\n\r\ndata: c', 'data: a\n\ndata: b\r\n\r\n'],
    ['sse', 'data: a\n', ''],
    ['jsonl', '{"a":1}\n{"a":2}\n{"a"', '{"a":1}\n{"a":2}\n'],
    ['json-seq', '\x1e{"a":1}\n\x1e{"a":2}\n\x1e{"a', '\x1e{"a":1}\n\x1e{"a":2}\n'],
  ] as const)('%s: %j', (kind, text, whole) => {
    expect(wholeItems(kind, text)).toBe(whole);
  });
});

it('a broken item schema is refused at compile, naming where it is', () => {
  const broken = {
    openapi: '3.2.0',
    info: { title: 'B', version: '1' },
    paths: {
      '/e': {
        get: {
          responses: ok('events', { 'application/jsonl': { itemSchema: { type: 'nope' } } }),
        },
      },
    },
  } as unknown as OpenAPIV3_1.Document;
  expect(() => compileSpec('broken.yaml', broken, true)).toThrow(/GET \/e 200 itemSchema/);
});
