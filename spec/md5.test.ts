/** MD5 against RFC 1321's test suite (§A.5), and one UTF-8 text checked against `md5sum`. */
import { md5Hex } from './md5';

describe('md5Hex', () => {
  it.each([
    ['', 'd41d8cd98f00b204e9800998ecf8427e'],
    ['a', '0cc175b9c0f1b6a831c399e269772661'],
    ['abc', '900150983cd24fb0d6963f7d28e17f72'],
    ['message digest', 'f96b697d7cb7938d525a2f31aaf161d0'],
    ['abcdefghijklmnopqrstuvwxyz', 'c3fcd3d76192e4007dfb496cca67e13b'],
    ['ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789', 'd174ab98d277d9f5a5611c2c9f419d9f'],
    [
      '12345678901234567890123456789012345678901234567890123456789012345678901234567890',
      '57edf4a22be3c955ac49da2e2107b67a',
    ],
  ])('MD5("%s")', (text, hex) => {
    expect(md5Hex(text)).toBe(hex);
  });

  it('hashes the UTF-8 bytes', () => {
    expect(md5Hex('ünïcode@example.com')).toBe('a2bac8ff1d4798b1133ad9777873641f');
  });
});
