import fc from 'fast-check';
import { parseList } from 'structured-headers';
import { parseRateLimit, parseSimpleList } from './ratelimit-fields';

/** What the general parser makes of `raw`, or its refusal. */
function general(raw: string): unknown {
  try {
    return parseList(raw);
  } catch {
    return 'refused';
  }
}

/** Pieces of the fields' syntax, valid and not, put together at random. */
const piece = fc.constantFrom(
  '"minute"',
  '"day"',
  '"a\\"b"',
  '"é"',
  'minute',
  ';r=59',
  ';t=42',
  '; r=7',
  ';r=007',
  ';r=1.5',
  ';r=-1',
  ';r=1234567890123456',
  ';r=123456789012345',
  ';q',
  ';R=1',
  ';*k.-_9=1',
  ',',
  ', ',
  ' ,',
  '\t,\t',
  ' ',
  '\t',
  '',
  '(',
  ')',
  '"',
  '=',
  ';',
);

describe('the common form of the RateLimit fields, read without the general parser', () => {
  it.each([
    '"minute";r=59;t=42',
    '  "minute";q=60;w=60,\t"day";q=1000;w=86400 ',
    '"a";r=1;r=2',
    '',
    '"";r=0',
  ])('reads %j as the general parser does', (raw) => {
    expect(parseSimpleList(raw)).not.toBeNull();
    expect(parseSimpleList(raw)).toEqual(general(raw));
  });

  it.each(['"minute";r=59;t=4,,', '"minute";r=1.5', '"minute";r=-1', 'minute;r=1', '"a";x', '"a" ;r=1'])(
    'leaves %j to the general parser',
    (raw) => expect(parseSimpleList(raw)).toBeNull(),
  );

  it('agrees with the general parser wherever it reads a value (random fields)', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const raw = pieces.join('');
        const simple = parseSimpleList(raw);
        if (simple !== null) expect(simple).toEqual(general(raw));
      }),
      { numRuns: 3000 },
    );
  });

  it('judges a field the general parser must read the same as before', () => {
    expect(parseRateLimit('minute;r=5')).toEqual({
      ok: true,
      items: [{ name: 'minute', r: 5, t: undefined }],
    });
    expect(parseRateLimit('"m";r=5, ')).toMatchObject({ ok: false, problem: /not a structured field List/ });
  });
});
