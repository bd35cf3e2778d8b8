/** Reads a stream up to a byte limit; past it, stops reading and leaves the rest to be piped unjudged. */
import type { Readable } from 'node:stream';

/** The chunks read so far; `tooLarge` when the limit was passed (the stream is paused, the rest unread). */
export function readLimited(
  stream: Readable,
  limit: number,
): Promise<{ chunks: Buffer[]; tooLarge: boolean; text: string }> {
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
        resolve({ chunks, tooLarge: true, text: '' });
      }
    };
    const onEnd = () => resolve({ chunks, tooLarge: false, text: Buffer.concat(chunks).toString('utf8') });
    stream.on('data', onData);
    stream.once('end', onEnd);
    stream.once('error', reject);
  });
}
