import { sharedAjv } from '../../spec/ajv';
import { withRunPrefix } from './run-prefix';

const P = 'conformance-mf3abc12';
const schema = {
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 100 },
    code: { type: 'string', maxLength: 5 },
    email: { type: 'string', format: 'email' },
    status: { type: 'string', enum: ['a', 'b'] },
    owner: { type: 'object', properties: { label: { type: 'string' } } },
    tags: { type: 'array', items: { type: 'string' } },
  },
};
const validate = sharedAjv().compile(schema);

describe('withRunPrefix', () => {
  it('puts the prefix in front of the short free-text strings of an accepted body, nested ones too', () => {
    const body = { name: 'rabbit', email: 'a@b.c', status: 'a', owner: { label: 'x' }, tags: ['t'] };
    expect(withRunPrefix(body, schema, P, validate)).toEqual({
      name: `${P}-rabbit`,
      email: 'a@b.c',
      status: 'a',
      owner: { label: `${P}-x` },
      tags: ['t'],
    });
  });

  it('keeps every length (a boundary stays a boundary) and the string end', () => {
    const at = 'fuzz-7-name-parrot-44'.padEnd(100, 'y');
    const over = `${at}z`;
    const sentAt = withRunPrefix({ name: at }, schema, P, validate) as { name: string };
    expect(sentAt.name).toHaveLength(100);
    expect(sentAt.name.startsWith(`${P}-`)).toBe(true);
    expect(sentAt.name.endsWith('yyyy')).toBe(true);
    const sentOver = withRunPrefix({ name: over }, schema, P, validate) as { name: string };
    expect(sentOver.name).toHaveLength(101);
    expect(sentOver.name.startsWith(P)).toBe(true);
    expect(validate(sentOver)).toBe(false);
  });

  it("leaves what it cannot prefix: a refused body's short strings, a tight bound, an already prefixed one", () => {
    expect(withRunPrefix({ name: '' }, schema, P, validate)).toEqual({ name: '' });
    // The tight bound keeps its value; the name beside it still gets the prefix.
    expect(withRunPrefix({ name: 'ok', code: 'abc' }, schema, P, validate)).toEqual({
      name: `${P}-ok`,
      code: 'abc',
    });
    const mine = { name: `${P}-trace-0` };
    expect(withRunPrefix(mine, schema, P, validate)).toBe(mine);
  });
});
