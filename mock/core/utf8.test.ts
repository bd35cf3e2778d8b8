import { encodeUtf8 } from './utf8';

const plain = new TextEncoder();

/** The first index where two byte arrays differ, or -1 (a plain loop: `toEqual` on 5,000 long arrays took 16 s). */
function firstDifference(a: Uint8Array, b: Uint8Array): number {
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return -1;
}

describe('encodeUtf8 (response bodies from a shared slab)', () => {
  it('gives the same bytes as TextEncoder, lone surrogates and long bodies included', () => {
    const samples = [
      '',
      'a',
      'é',
      '😀',
      '\ud800',
      'a\udc00b',
      'x'.repeat(3000),
      'é'.repeat(2000),
      '😀'.repeat(1400),
    ];
    const wrong: Array<{ text: string; at: number }> = [];
    for (let i = 0; i < 5000; i++) {
      const text = `${samples[i % samples.length] ?? ''}${i}`;
      const at = firstDifference(encodeUtf8(text), plain.encode(text));
      if (at >= 0) wrong.push({ text: text.slice(0, 40), at });
    }
    expect(wrong).toEqual([]);
  });

  it('never writes again over bytes it handed out', () => {
    const held = Array.from({ length: 3000 }, (_, i) => ({
      text: `{"id":${i},"name":"n${i}"}`,
      bytes: encodeUtf8(`{"id":${i},"name":"n${i}"}`),
    }));
    for (let i = 0; i < 20_000; i++) encodeUtf8(`{"filler":${i}}`);
    const decoder = new TextDecoder();
    expect(held.filter(({ text, bytes }) => decoder.decode(bytes) !== text).map((h) => h.text)).toEqual([]);
  });
});
