import { checkKeys, createKeyring } from './keys';

describe('keys file', () => {
  it('accepts the documented format', () => {
    const result = checkKeys(
      {
        keys: [
          { key: 'free-demo-key', plan: 'free' },
          { key: 'ent-demo-key', plan: 'enterprise', perMinute: 5000, perDay: 2000000 },
        ],
      },
      { allowShortKeys: true },
    );
    expect(result.ok).toBe(true);
  });

  it.each([
    [{}, /keys is required/],
    [{ keys: [{ key: 'a', plan: 'gold' }] }, /keys\/0\/plan must be equal to one of the allowed values/],
    [{ keys: [{ key: 'a', plan: 'free' }, { plan: 'pro' }] }, /keys\/1\/key is required/],
    [{ keys: [{ key: '', plan: 'free' }] }, /keys\/0\/key must NOT have fewer than 1 characters/],
    [{ keys: [{ key: 'a', plan: 'enterprise' }] }, /keys\/0: an enterprise key needs perMinute and perDay/],
    [
      { keys: [{ key: 'a', plan: 'free', perMinute: 5 }] },
      /keys\/0: perMinute and perDay are only for enterprise/,
    ],
    [
      {
        keys: [
          { key: 'a', plan: 'free' },
          { key: 'a', plan: 'pro' },
        ],
      },
      /keys\/1\/key repeats an earlier key/,
    ],
    [
      { keys: [{ key: 'a', plan: 'enterprise', perMinute: 0, perDay: 5 }] },
      /keys\/0\/perMinute must be >= 1/,
    ],
  ])('refuses %j naming the entry', (data, message) => {
    const result = checkKeys(data, { allowShortKeys: true });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(message);
  });

  it('gives plans their limits and enterprise its own', async () => {
    const ring = await createKeyring([
      { key: 'f', plan: 'free' },
      { key: 'p', plan: 'pro' },
      { key: 'b', plan: 'business' },
      { key: 'e', plan: 'enterprise', perMinute: 7, perDay: 70 },
    ]);
    const limits = (k: string) => ring.find(k)?.windows.map((w) => w.limit);
    expect(limits('f')).toEqual([60, 1000]);
    expect(limits('p')).toEqual([300, 10000]);
    expect(limits('b')).toEqual([1000, 100000]);
    expect(limits('e')).toEqual([7, 70]);
    expect(ring.find('x')).toBeUndefined();
  });

  it('labels and subjects never contain the key', async () => {
    const ring = await createKeyring([{ key: 'super-secret-key', plan: 'free' }]);
    const found = ring.find('super-secret-key');
    expect(found?.label).toMatch(/^free:[0-9a-f]{8}$/);
    expect(JSON.stringify({ label: found?.label, subject: found?.subject })).not.toContain('super-secret');
  });

  it("adds a file's own plans to the built-in ones (issue 21)", async () => {
    const data = {
      plans: { reader: { perMinute: 5, perDay: 50 }, pro: { perMinute: 7, perDay: 70 } },
      keys: [
        { key: 'reader-key-0000001', plan: 'reader' },
        { key: 'free-key-000000001', plan: 'free' },
        { key: 'pro-key-0000000001', plan: 'pro' },
      ],
    };
    const result = checkKeys(data);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const ring = await createKeyring(result.keys, result.plans);
    const limits = (k: string) => ring.find(k)?.windows.map((w) => w.limit);
    expect(limits('reader-key-0000001')).toEqual([5, 50]);
    expect(limits('free-key-000000001')).toEqual([60, 1000]);
    expect(limits('pro-key-0000000001')).toEqual([7, 70]); // the file's plan of the same name wins
  });

  it('refuses a key of an unknown plan, naming the plan and the known ones', () => {
    const result = checkKeys({
      plans: { reader: { perMinute: 5, perDay: 50 } },
      keys: [{ key: 'k'.repeat(16), plan: 'gold' }],
    });
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.error).toMatch(
        /keys\/0\/plan.*unknown plan "gold" \(known plans: free, pro, business, reader, enterprise\)/,
      );
  });
});
