import { bareAddress, clientAddress, parseTrustList, remoteAddressOf, type TrustList } from './trust-proxy';

function trust(...entries: string[]): TrustList {
  const r = parseTrustList(entries);
  if (!r.ok) throw new Error(r.error);
  return r.list;
}

describe('clientAddress: X-Forwarded-For believed only from listed proxies', () => {
  it.each([
    ['no proxy trusted: the peer, whatever the header says', [], '127.0.0.1', '9.9.9.9', '127.0.0.1'],
    ['an untrusted peer: the peer, header ignored', ['10.0.0.1'], '10.0.0.2', '9.9.9.9', '10.0.0.2'],
    ['a trusted peer without the header: the peer', ['loopback'], '127.0.0.1', undefined, '127.0.0.1'],
    ['a trusted peer: the address it forwarded', ['loopback'], '127.0.0.1', '127.0.0.2', '127.0.0.2'],
    [
      'the right-most untrusted hop, not a forged left one',
      ['loopback'],
      '127.0.0.1',
      '6.6.6.6, 8.8.8.8',
      '8.8.8.8',
    ],
    [
      'trusted hops are skipped',
      ['10.0.0.0/8', '127.0.0.1'],
      '127.0.0.1',
      '1.2.3.4, 10.1.1.1, 10.2.2.2',
      '1.2.3.4',
    ],
    ['all hops trusted: the left-most', ['loopback'], '127.0.0.1', '127.0.0.9, 127.0.0.8', '127.0.0.9'],
    [
      'a malformed hop stops at the last vouched one',
      ['loopback'],
      '127.0.0.1',
      '1.1.1.1, nonsense',
      '127.0.0.1',
    ],
    ['garbage behind a trusted hop', ['loopback'], '127.0.0.1', 'evil, 127.0.0.5', '127.0.0.5'],
    ['an IPv4-mapped peer matches IPv4 rules', ['127.0.0.1'], '::ffff:127.0.0.1', '5.5.5.5', '5.5.5.5'],
    ['IPv6 CIDR', ['fd00::/8'], 'fd00::1', '2001:db8::1', '2001:db8::1'],
    [
      'ports and brackets are dropped',
      ['loopback'],
      '127.0.0.1',
      '[2001:db8::2]:443, 4.4.4.4:8080',
      '4.4.4.4',
    ],
    ['an exact IP is not its neighbour', ['127.0.0.1'], '127.0.0.2', '5.5.5.5', '127.0.0.2'],
  ])('%s', (_name, entries, peer, header, expected) => {
    expect(clientAddress(peer, header, trust(...entries))).toBe(expected);
  });

  it('answers the same for addresses it has seen before, beyond what it remembers', () => {
    const list = trust('loopback', '10.0.0.0/8');
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 10_000; i++) {
        const outside = `192.168.${(i >> 8) & 255}.${i & 255}`;
        const inside = `10.0.${(i >> 8) & 255}.${i & 255}`;
        expect(clientAddress('127.0.0.1', `${outside}, ${inside}`, list)).toBe(outside);
        expect(clientAddress(outside, inside, list)).toBe(outside);
        expect(clientAddress('127.0.0.1', `${inside}, nonsense${i}`, list)).toBe('127.0.0.1');
      }
    }
  });
});

describe('parseTrustList', () => {
  it.each([['loopback'], ['linklocal', 'uniquelocal'], ['10.0.0.0/8', '::1', '2001:db8::/32', '0.0.0.0/0']])(
    'accepts %j',
    (...entries) => expect(parseTrustList(entries).ok).toBe(true),
  );

  it.each([['localhost'], ['10.0.0.0/33'], ['::/129'], ['1.2.3.4/x'], ['1.2.3/8'], ['1.2.3.4/8/8']])(
    'refuses %s with a message naming it',
    (entry) => {
      const r = parseTrustList([entry]);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error).toContain(`"${entry}"`);
    },
  );
});

describe('bareAddress', () => {
  it.each([
    [' 1.2.3.4 ', '1.2.3.4'],
    ['1.2.3.4:80', '1.2.3.4'],
    ['[::1]:80', '::1'],
    ['[::1]', '::1'],
    ['::1', '::1'],
    ['unknown', null],
    ['', null],
  ])('%j -> %j', (element, expected) => expect(bareAddress(element)).toBe(expected));
});

describe('remoteAddressOf (the adapter entry)', () => {
  it('returns the peer untouched when nothing is trusted', () => {
    expect(remoteAddressOf('127.0.0.1', '1.1.1.1', [])).toBe('127.0.0.1');
    expect(remoteAddressOf(undefined, undefined, [])).toBe('unknown');
  });

  it('reads the header from a trusted peer, joining repeated headers', () => {
    const list = Object.freeze(['loopback']);
    expect(remoteAddressOf('127.0.0.1', '3.3.3.3', list)).toBe('3.3.3.3');
    expect(remoteAddressOf('127.0.0.1', ['9.9.9.9', '3.3.3.3'], list)).toBe('3.3.3.3');
  });

  it('never trusts an invalid list', () => {
    expect(remoteAddressOf('127.0.0.1', '3.3.3.3', ['not-an-ip'])).toBe('127.0.0.1');
  });
});
