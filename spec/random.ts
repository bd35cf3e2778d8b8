/** A seeded source of numbers in [0, 1) (mulberry32): small, fast and repeatable from a 32-bit seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A UUID (v4) drawn from `random`: repeatable where the source is seeded (`--random-seed`). */
export function uuidFrom(random: () => number): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16));
  hex[12] = '4';
  hex[16] = ((Math.floor(random() * 4) & 0x3) | 0x8).toString(16);
  const h = hex.join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/**
 * The source of the ids the mock invents (records, an error's own id), from `--random-seed`: a stream of its own,
 * so that latency and fault draws never shift which ids come out.
 */
export const idRandom = (seed: number): (() => number) => seededRandom((seed ^ 0x9e3779b9) >>> 0);
