/**
 * Pure: MD5 (RFC 1321) of a string's UTF-8 bytes, as 32 lower-case hex digits. Not for security: a key the
 * document says is an MD5 hash (Mailchimp's `subscriber_hash`, spec/derived-key.ts) is made with it. Web Crypto
 * has no MD5 and the engine uses no node:crypto, so it is written here (about 40 lines).
 */

/** The per-round shift amounts (RFC 1321 §3.4). */
const SHIFTS = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21];
/** T[i] = floor(abs(sin(i + 1)) * 2^32) (RFC 1321 §3.4). */
const T = Array.from({ length: 64 }, (_, i) => Math.floor(Math.abs(Math.sin(i + 1)) * 2 ** 32) >>> 0);

const rotl = (x: number, n: number): number => ((x << n) | (x >>> (32 - n))) >>> 0;

/** The message as little-endian 32-bit words, padded with a 1 bit, zeros and its bit length (RFC 1321 §3.1–3.2). */
function padded(bytes: Uint8Array): Uint32Array {
  const words = new Uint32Array((((bytes.length + 8) >>> 6) + 1) * 16);
  bytes.forEach((b, i) => (words[i >> 2] = (words[i >> 2] ?? 0) | (b << ((i % 4) * 8))));
  const n = bytes.length;
  words[n >> 2] = (words[n >> 2] ?? 0) | (0x80 << ((n % 4) * 8));
  words[words.length - 2] = (n * 8) >>> 0;
  words[words.length - 1] = Math.floor(n / 2 ** 29);
  return words;
}

/** The four auxiliary functions and message-word orders of the four rounds (RFC 1321 §3.4). */
function round(i: number, b: number, c: number, d: number): [number, number] {
  if (i < 16) return [(b & c) | (~b & d), i];
  if (i < 32) return [(d & b) | (~d & c), (5 * i + 1) % 16];
  if (i < 48) return [b ^ c ^ d, (3 * i + 5) % 16];
  return [c ^ (b | ~d), (7 * i) % 16];
}

/** MD5 of `text` (UTF-8), hex. */
export function md5Hex(text: string): string {
  const m = padded(new TextEncoder().encode(text));
  const h = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476];
  for (let off = 0; off < m.length; off += 16) {
    let [a, b, c, d] = h as [number, number, number, number];
    for (let i = 0; i < 64; i++) {
      const [f, g] = round(i, b, c, d);
      const sum = (a + (f >>> 0) + (T[i] ?? 0) + (m[off + g] ?? 0)) >>> 0;
      [a, d, c] = [d, c, b];
      b = (b + rotl(sum, SHIFTS[(i >> 4) * 4 + (i % 4)] ?? 0)) >>> 0;
    }
    [a, b, c, d].forEach((v, k) => (h[k] = ((h[k] ?? 0) + v) >>> 0));
  }
  const hex = (w: number) =>
    [0, 8, 16, 24].map((s) => ((w >>> s) & 0xff).toString(16).padStart(2, '0')).join('');
  return h.map(hex).join('');
}
