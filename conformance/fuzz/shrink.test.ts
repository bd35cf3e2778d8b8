import { shrink } from './shrink';
import type { FuzzRequest } from './cases';

const name = (r: FuzzRequest) => (r.body as { name?: unknown } | undefined)?.name;

it('drops what does not matter and keeps the value that fails, within its expectation', async () => {
  // The fault: a name longer than 5 is accepted. The case stays a "too long" one (keeps) while it shrinks.
  const keeps = (r: FuzzRequest) => typeof name(r) === 'string' && String(name(r)).length > 5;
  let sent = 0;
  const stillFails = async (r: FuzzRequest) => {
    sent += 1;
    return keeps(r);
  };
  const start = { body: { name: 'abcdefghijklmnop', age: 41, tags: ['a', 'b'], owner: { email: 'x@y.z' } } };
  const shrunk = await shrink(start, keeps, stillFails, 100);
  expect(shrunk.request).toEqual({ body: { name: 'abcdef' } });
  expect(shrunk.tries).toBe(sent);
  expect((await shrink(start, keeps, stillFails, 100)).request).toEqual(shrunk.request);
});

it('stops at its budget', async () => {
  const shrunk = await shrink(
    { body: { a: 1, b: 2, c: 3 } },
    () => true,
    async () => true,
    2,
  );
  expect(shrunk.tries).toBe(2);
  expect(shrunk.request).toEqual({ body: { c: 3 } });
});
