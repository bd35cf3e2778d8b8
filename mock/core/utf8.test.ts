import { encodeUtf8 } from './utf8';

const plain = new TextEncoder();

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
    for (let i = 0; i < 5000; i++) {
      const text = `${samples[i % samples.length] ?? ''}${i}`;
      expect(Array.from(encodeUtf8(text))).toEqual(Array.from(plain.encode(text)));
    }
  });

  it('never writes again over bytes it handed out', () => {
    const held = Array.from({ length: 3000 }, (_, i) => ({
      text: `{"id":${i},"name":"n${i}"}`,
      bytes: encodeUtf8(`{"id":${i},"name":"n${i}"}`),
    }));
    for (let i = 0; i < 20_000; i++) encodeUtf8(`{"filler":${i}}`);
    for (const { text, bytes } of held) expect(new TextDecoder().decode(bytes)).toBe(text);
  });
});
