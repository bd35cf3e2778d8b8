import { describeIdForm, idFormOf, makeId, type IdForm } from './id-form';

const HEX = '0123456789abcdef';

describe('idFormOf: ids in the document form (issue 26.6)', () => {
  it.each<[string, object[], IdForm | undefined]>([
    [
      'an example with a prefix and digits',
      [{ type: 'string', example: 'sched_1234' }],
      { prefix: 'sched_', kind: 'counter' },
    ],
    [
      'examples as a 3.1 list',
      [{ type: 'string', examples: ['ord-77'] }],
      { prefix: 'ord-', kind: 'counter' },
    ],
    [
      'an example with a hex part',
      [{ type: 'string', example: 'cus_8f3a2b0c' }],
      { prefix: 'cus_', kind: 'random', alphabet: HEX, length: 8 },
    ],
    [
      'a short example: the alphabet it shows, a billion ids at least',
      [{ type: 'string', examples: ['prod_8a1f'] }],
      { prefix: 'prod_', kind: 'random', alphabet: HEX, length: 8 },
    ],
    [
      'a pattern with a prefix and hex digits',
      [{ type: 'string', pattern: '^wh_[0-9a-f]{16}$' }],
      { prefix: 'wh_', kind: 'random', alphabet: HEX, length: 16 },
    ],
    [
      'a pattern with a prefix and digits',
      [{ type: 'string', pattern: '^inv_\\d+$' }],
      { prefix: 'inv_', kind: 'counter' },
    ],
    [
      'the path parameter pattern beside the property',
      [
        { type: 'string', readOnly: true },
        { type: 'string', pattern: '^job-[0-9]+$' },
      ],
      { prefix: 'job-', kind: 'counter' },
    ],
    ['a pattern a UUID fits (a slug)', [{ type: 'string', pattern: '^[a-z0-9]+(-[a-z0-9]+)*$' }], undefined],
    ['a UUID example', [{ type: 'string', example: '3fa85f64-5717-4562-b3fc-2c963f66afa6' }], undefined],
    ['format uuid', [{ type: 'string', format: 'uuid', example: 'x_1' }], undefined],
    ['no pattern, no example', [{ type: 'string' }], undefined],
    ['a slug example', [{ type: 'string', example: 'how-to-train-your-dragon' }], undefined],
    [
      'an example the pattern refuses',
      [{ type: 'string', example: 'sched_12', pattern: '^s_[0-9]+$' }],
      { prefix: 's_', kind: 'counter' },
    ],
    ['a pattern that does not compile', [{ type: 'string', pattern: '^(x' }], undefined],
  ])('%s', (_, schemas, form) => {
    expect(idFormOf(schemas)).toEqual(form);
  });

  it('makes ids that fit the pattern they came from', () => {
    const form = idFormOf([{ type: 'string', pattern: '^wh_[0-9a-f]{16}$' }]) as IdForm;
    let n = 0;
    const ids = Array.from({ length: 20 }, () => makeId(form, 0, (below) => (n++ * 7) % below));
    for (const id of ids) expect(id).toMatch(/^wh_[0-9a-f]{16}$/);
    expect(makeId({ prefix: 'sched_', kind: 'counter' }, 42, () => 0)).toBe('sched_42');
  });

  it('says the form in words for the start banner', () => {
    expect(describeIdForm({ prefix: 'sched_', kind: 'counter' })).toBe('sched_1, sched_2…');
    expect(describeIdForm({ prefix: 'wh_', kind: 'random', alphabet: HEX, length: 16 })).toBe('wh_ + 16 hex');
  });
});

describe('idFormOf, long and nullable ids', () => {
  it('reads a random part longer than its alphabet (MG and 32 hex digits), nullable or not', () => {
    const form = { prefix: 'MG', kind: 'random', alphabet: '0123456789abcdef', length: 32 };
    expect(idFormOf([{ type: 'string', pattern: '^MG[0-9a-fA-F]{32}$' }])).toEqual(form);
    expect(idFormOf([{ type: ['string', 'null'], pattern: '^MG[0-9a-f]{32}$', minLength: 34 }])).toEqual(
      form,
    );
  });
});
