/**
 * UTF-8 bytes of a response body. `TextEncoder.encode` allocates a fresh buffer per call, which for the small
 * bodies most answers have costs several times the encoding itself; small bodies are encoded into slices of
 * a shared slab instead, as Node's Buffer pool does. A slice is never written again once handed out, so the
 * bytes stay as they are while a transport still holds them; a slab is freed once none of its slices is held.
 */
const SLAB_BYTES = 64 * 1024;
/** Bodies that may need more bytes than this get their own buffer. */
const POOLED_MAX_BYTES = 8 * 1024;

const encoder = new TextEncoder();
let slab = new Uint8Array(SLAB_BYTES);
let used = 0;

export function encodeUtf8(text: string): Uint8Array {
  // A UTF-16 code unit takes at most 3 bytes of UTF-8 (a surrogate pair: 4 for two units).
  const most = text.length * 3;
  if (most > POOLED_MAX_BYTES) return encoder.encode(text);
  if (used + most > SLAB_BYTES) {
    slab = new Uint8Array(SLAB_BYTES);
    used = 0;
  }
  const { written } = encoder.encodeInto(text, slab.subarray(used));
  const bytes = slab.subarray(used, used + written);
  used += written;
  return bytes;
}
