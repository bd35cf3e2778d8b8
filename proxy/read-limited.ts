/**
 * Reads a stream up to a byte limit; past it, stops reading and leaves the rest to be piped unjudged. A body
 * sent with a `Content-Encoding` (a browser asks for gzip or br, and most servers answer so) is passed on as
 * it came and decoded for the judge only, within the same limit.
 */
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';

/** What was read: the raw chunks (forwarded as they are) and the text the judge reads. */
export interface LimitedRead {
  chunks: Buffer[];
  /** The limit was passed: the stream is paused, the rest unread (pipe it on). */
  tooLarge: boolean;
  /** The decoded body ('' when too large or not judged). */
  text: string;
  /** Why the body, read whole, cannot be judged (an encoding not known, a corrupt or too large decoding). */
  unjudged?: string;
}

/** `chunks` decoded per `encoding` (gzip, x-gzip, deflate, br, identity; a list applied last first). */
export function decodeBody(
  raw: Buffer,
  encoding: string | undefined,
  limit: number,
): { text: string } | { unjudged: string } {
  // Most bodies come as they are: nothing to split or decode.
  if (encoding === undefined || encoding === '') return { text: raw.toString('utf8') };
  const codings = (encoding ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  let body = raw;
  const options = { maxOutputLength: Math.max(limit, 1) };
  try {
    for (const coding of codings.reverse()) {
      if (coding === 'gzip' || coding === 'x-gzip') body = zlib.gunzipSync(body, options);
      else if (coding === 'deflate') body = zlib.inflateSync(body, options);
      else if (coding === 'br') body = zlib.brotliDecompressSync(body, options);
      else return { unjudged: `Content-Encoding ${coding} is not decoded, body not judged` };
    }
  } catch (err) {
    const tooLarge = (err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError;
    return {
      unjudged: tooLarge
        ? 'decoded body over --max-body-bytes, not judged'
        : `the ${codings.join(', ')} body cannot be decoded, not judged`,
    };
  }
  return { text: body.toString('utf8') };
}

/**
 * Read `stream` up to `limit` bytes; `encoding` is its Content-Encoding header. A body whose `declared`
 * Content-Length is over the limit is not read at all (it will not be judged): it streams on from its start,
 * so a large answer costs no buffer.
 */
export function readLimited(
  stream: Readable,
  limit: number,
  encoding?: string,
  declared?: string | number,
): Promise<LimitedRead> {
  if (declared !== undefined && Number(declared) > limit)
    return Promise.resolve({ chunks: [], tooLarge: true, text: '' });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size > limit) {
        stream.pause();
        stream.off('data', onData);
        stream.off('end', onEnd);
        stream.off('close', onClose);
        resolve({ chunks, tooLarge: true, text: '' });
      }
    };
    // Closed before its end (a client gone, an upstream cut): never a body read whole.
    const onClose = () => reject(new Error('the stream closed before its end'));
    const onEnd = () => {
      stream.off('close', onClose);
      const raw = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
      const decoded = decodeBody(raw, encoding, limit);
      resolve({
        chunks,
        tooLarge: false,
        text: 'text' in decoded ? decoded.text : '',
        ...('unjudged' in decoded ? { unjudged: decoded.unjudged } : {}),
      });
    };
    stream.on('data', onData);
    stream.once('end', onEnd);
    stream.once('close', onClose);
    stream.once('error', reject);
  });
}
