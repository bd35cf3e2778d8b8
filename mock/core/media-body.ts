/**
 * Answers that are not JSON (issue 30): an operation whose answer is `application/pdf`, XML, RSS, CSV, text or an
 * image is answered with a body of that type and its `Content-Type`: the document's example for that media
 * type, else a string the schema's example or generator gives (text types), else a minimal valid document of
 * the type. Pure: the document (already dereferenced) in, bytes out.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import { documentedResponse, type OperationSpec, type ResponseSpec } from '../../spec/compile';
import type { Schema } from '../../spec/schema-shape';
import { sampleOf } from '../../spec/sample';
import type { StreamSpec } from '../../spec/http/stream-format';
import { DEFAULT_STREAM_ITEMS, streamChunks, streamFor } from '../../spec/http/streams';
import type { EventSink, Reply } from './context';
import type { StreamSettings } from './settings';
import { operationObject } from '../../spec/methods';
import { negotiate } from '../../spec/http/negotiate';
import { exampleValue } from '../../spec/example-value';
import { fromXml, toXml, withRequiredLists, xmlRootName } from '../../spec/xml';
import { validAnswer } from '../../spec/conform';
import { structuredText } from '../../spec/text-form';

const encoder = new TextEncoder();

export interface MediaBody {
  contentType: string;
  raw: Uint8Array;
}

const XML_DECL = '<?xml version="1.0" encoding="UTF-8"?>\n';
const RSS = `${XML_DECL}<rss version="2.0"><channel><title>string</title><link>http://example.com</link><description>string</description></channel></rss>\n`;
const ATOM = `${XML_DECL}<feed xmlns="http://www.w3.org/2005/Atom"><id>urn:uuid:095be615-a8ad-4c33-8e9c-c7612fbf6c9f</id><title>string</title><updated>2019-08-24T14:15:22Z</updated></feed>\n`;
const PDF =
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
  '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n';
const bytes = (hex: string): Uint8Array => Uint8Array.from(hex.match(/../g) ?? [], (h) => parseInt(h, 16));
/** 1x1 images and an empty ZIP archive. */
const BINARY: Record<string, Uint8Array> = {
  'image/png': bytes(
    '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  ),
  'image/gif': bytes(
    '4749463839610100010080000000000000ffffff21f90401000000002c00000000010001000002024401003b',
  ),
  'image/jpeg': bytes(
    'ffd8ffe000104a46494600010100000100010000ffdb004300080606070605080707070909080a0c140d0c0b0b0c1912130f141d1a1f1e1d1a1c1c20242e2720222c231c1c2837292c30313434341f27393d38323c2e333432ffc0000b080001000101011100ffc4001f0000010501010101010100000000000000000102030405060708090a0bffc400b5100002010303020403050504040000017d01020300041105122131410613516107227114328191a1082342b1c11552d1f02433627282090a161718191a25262728292a3435363738393a434445464748494a535455565758595a636465666768696a737475767778797a838485868788898a92939495969798999aa2a3a4a5a6a7a8a9aab2b3b4b5b6b7b8b9bac2c3c4c5c6c7c8c9cad2d3d4d5d6d7d8d9dae1e2e3e4e5e6e7e8e9eaf1f2f3f4f5f6f7f8f9faffda0008010100003f00fbd3ffd9',
  ),
  'application/zip': bytes('504b0506000000000000000000000000000000000000'),
  'application/gzip': bytes('1f8b08000000000000030300000000000000000000'),
};

/** The base type, lower-cased, without parameters. */
const baseOf = (type: string): string => (type.split(';')[0] ?? '').trim().toLowerCase();

/** The documented media type the request's `Accept` allows (spec/http/negotiate.ts); the first when none is. */
export function chooseMediaType(offered: readonly string[], accept: string | undefined): string | undefined {
  return negotiate(offered, accept) ?? offered[0];
}

const isXml = (t: string): boolean => t === 'application/xml' || t === 'text/xml' || t.endsWith('+xml');

/** A minimal valid body of `type` (for text types, `text` when given). */
function minimal(type: string, schema: Schema | undefined, text: string | undefined): Uint8Array {
  const known = BINARY[type];
  if (known) return known;
  if (type === 'application/pdf') return encoder.encode(PDF);
  if (type === 'application/rss+xml') return encoder.encode(RSS);
  if (type === 'application/atom+xml') return encoder.encode(ATOM);
  if (type === 'image/svg+xml') return encoder.encode('<svg xmlns="http://www.w3.org/2000/svg"/>\n');
  if (isXml(type)) {
    const name = (schema as { xml?: { name?: unknown } } | undefined)?.xml?.name;
    const root = typeof name === 'string' && /^[A-Za-z_][\w.-]*$/.test(name) ? name : 'root';
    return encoder.encode(`${XML_DECL}<${root}>${escapeXml(text ?? '')}</${root}>\n`);
  }
  if (type === 'text/html')
    return encoder.encode(
      `<!DOCTYPE html><html><head><title>string</title></head><body>${escapeXml(text ?? '')}</body></html>\n`,
    );
  if (type === 'text/csv') return encoder.encode(text !== undefined ? `${text}\n` : 'value\nstring\n');
  if (type === 'text/event-stream') return encoder.encode(`data: ${text ?? 'string'}\n\n`);
  return encoder.encode(text ?? 'string');
}

const escapeXml = (s: string): string =>
  s.replace(/[<>&]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;' })[c] ?? c);

/** The media object of the documented answer `status` (its own entry, else its range, else `default`). */
function responseObject(
  document: OpenAPIV3_1.Document,
  op: OperationSpec,
  status: number,
): OpenAPIV3_1.ResponseObject | undefined {
  const responses = operationObject(document, op.path, op.method)?.responses;
  const s = String(status);
  return (responses?.[s] ?? responses?.[`${s[0] ?? ''}XX`] ?? responses?.default) as
    OpenAPIV3_1.ResponseObject | undefined;
}

/** The body of a non-JSON answer of `op` with `status`, in the type `Accept` allows; undefined when none. */
export function mediaBody(
  document: OpenAPIV3_1.Document,
  op: OperationSpec,
  status: number,
  accept: string | undefined,
): MediaBody | undefined {
  const content = responseObject(document, op, status)?.content;
  if (!content) return undefined;
  const type = chooseMediaType(Object.keys(content), accept);
  if (!type) return undefined;
  const media = content[type] ?? {};
  const base = baseOf(type);
  const contentType = base.includes('*') ? 'application/octet-stream' : type;
  const example = media.example ?? exampleValue(Object.values(media.examples ?? {})[0]);
  const xmlSpec = isXml(base) ? documentedResponse(op, status)?.xml : undefined;
  if (typeof example === 'string' && (!xmlSpec || xmlTextFits(example, xmlSpec)))
    return { contentType, raw: encoder.encode(example) };
  const schema = media.schema as Schema | undefined;
  const xml = structuredXml(
    document,
    op,
    base,
    schema,
    typeof example === 'string' ? undefined : example,
    xmlSpec,
  );
  if (xml !== undefined) return { contentType, raw: encoder.encode(xml) };
  const binary = /^(image|audio|video|font)\/|^application\/(pdf|zip|gzip|octet-stream)/.test(base);
  if (binary || !schema) return { contentType, raw: minimal(base, schema, undefined) };
  // An object or array schema under a text type: the value written as that type's text (spec/text-form.ts).
  const structured = isXml(base) ? undefined : textOfShape(base, schema, example);
  if (structured !== undefined) return { contentType, raw: encoder.encode(structured) };
  const sample = schema.type === 'string' || schema.example !== undefined ? sampleOf(schema) : undefined;
  const text = typeof sample === 'string' ? sample : undefined;
  return { contentType, raw: minimal(base, schema, text) };
}

/** The example (held to the schema), else a generated value, as text, where the schema is an object or array. */
function textOfShape(base: string, schema: Schema, example: unknown): string | undefined {
  if (!shapeOf(schema) || base === 'text/html' || base === 'text/event-stream') return undefined;
  const value = typeof example === 'object' && example !== null ? example : sampleOf(schema);
  return structuredText(base, value);
}

/**
 * An XML answer whose schema is an object or an array (issue 40): the example, else a generated value, written
 * by the schema's `xml` object under the root the schema names (its `xml.name`, else its component's name, else
 * the operation's); undefined for other types and for text schemas (written as before).
 */
function structuredXml(
  document: OpenAPIV3_1.Document,
  op: OperationSpec,
  base: string,
  schema: Schema | undefined,
  example: unknown,
  xmlSpec: ResponseSpec['xml'],
): string | undefined {
  if (!isXml(base) || base === 'application/rss+xml' || base === 'application/atom+xml') return undefined;
  if (!schema || !/^(object|array)$/.test(String(typeof example === 'object' ? 'object' : shapeOf(schema))))
    return undefined;
  const component = Object.entries(document.components?.schemas ?? {}).find(([, s]) => s === schema)?.[0];
  const root = xmlRootName(schema, component ?? op.operationId);
  const given = example !== undefined && example !== null ? example : sampleOf(schema);
  if (!xmlSpec) return toXml(given, schema, root);
  // The document's example (EC2's are keyed by element names, not the schema's) or a generated value, held to
  // the schema as a JSON answer is (spec/conform.ts); what matters is what the XML reader gets back, so an
  // example that does not read back as the schema's object gives way to a generated value.
  // A required list left empty is given an item: unwritten, a reader would take it for missing.
  const fill = (items: Schema | undefined) => sampleOf(items, { requiredOnly: true });
  const write = (v: unknown) =>
    toXml(withRequiredLists(validAnswer(v, xmlSpec.schema, xmlSpec.validate), schema, fill), schema, root);
  const text = write(given);
  return given === example && !xmlTextFits(text, xmlSpec) ? write(sampleOf(schema)) : text;
}

/** Does an XML text example, read as the schema says (spec/xml.ts), give a value of the schema? */
function xmlTextFits(text: string, xmlSpec: NonNullable<ResponseSpec['xml']>): boolean {
  try {
    return xmlSpec.validate(fromXml(text, xmlSpec.schema));
  } catch {
    return false;
  }
}

/** `object` or `array` where the schema (or an `allOf` part) says so. */
const shapeOf = (schema: Schema): string | undefined => {
  const s = schema as { type?: unknown; properties?: unknown; items?: unknown; allOf?: Schema[] };
  if (s.type === 'object' || s.properties) return 'object';
  if (s.type === 'array' || s.items) return 'array';
  for (const part of s.allOf ?? []) if (shapeOf(part)) return shapeOf(part);
  return undefined;
};

/** Does `accept` name `type` itself (not only through a wildcard)? */
function names(accept: string | undefined, type: string): boolean {
  const wanted = baseOf(type);
  return (accept ?? '').split(',').some((range) => baseOf(range) === wanted);
}

/**
 * The stream (3.2 `itemSchema`) to answer `status` with, in the type `Accept` allows; undefined when the answer
 * is not a stream. Where JSON is documented beside the stream (`application/json` or `text/event-stream`), JSON
 * stays the answer unless `Accept` names the stream's type.
 */
export function chooseStream(
  documented: ResponseSpec | undefined,
  accept: string | undefined,
): StreamSpec | undefined {
  if (!documented?.streams?.length) return undefined;
  const stream = streamFor(documented.streams, chooseMediaType(documented.mediaTypes, accept));
  if (!stream || (documented.contentType && !names(accept, stream.mediaType))) return undefined;
  return stream;
}

/**
 * A streamed answer: `settings.items` items (or the example's), each written as its own chunk as soon as the
 * previous one is out, `settings.intervalMs` apart; no Content-Length (chunked). Nothing more is written once the
 * client has gone.
 */
export function streamReply(
  stream: StreamSpec,
  status: number,
  headers: Record<string, string>,
  settings: Partial<StreamSettings>,
  sleep: (ms: number) => Promise<void>,
): Reply {
  const chunks = streamChunks(stream, settings.items ?? DEFAULT_STREAM_ITEMS);
  const intervalMs = Math.min(Math.max(settings.intervalMs ?? 0, 0), 10_000);
  return {
    status,
    contentType: stream.mediaType,
    headers: {
      ...headers,
      'Content-Type': stream.mediaType,
      'Cache-Control': 'no-store',
      // nginx (deploy/) passes each event on at once instead of buffering the answer.
      'X-Accel-Buffering': 'no',
    },
    stream: function writeStream(out: EventSink) {
      let open = true;
      out.on('close', () => (open = false));
      void (async () => {
        for (const [i, chunk] of chunks.entries()) {
          if (i > 0 && intervalMs > 0) await sleep(intervalMs);
          if (!open) return;
          out.write(chunk);
        }
        out.end();
      })();
    },
  };
}
