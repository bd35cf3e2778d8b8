import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { toHar } from '../../spec/report/har';
import type { Exchange } from '../types';
import { openHarFile } from './har-file';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'har-file-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const exchange = (n: number): Exchange => ({
  request: { method: 'GET', url: `http://t.test/v1/items/${n}`, headers: {} },
  response: { status: 200, headers: {}, body: 'x'.repeat(3000) },
  receivedAt: n,
});

it('writes the whole document under its name only when closed', () => {
  const file = path.join(dir, 'deeper', 'run.har');
  const har = openHarFile(file, '1.0.0');
  const list = Array.from({ length: 100 }, (_, n) => exchange(n)); // more than one 64 kB flush
  for (const e of list) har.add(e);
  expect(fs.existsSync(file)).toBe(false);
  expect(har.close()).toBe(100);
  expect(fs.readFileSync(file, 'utf8')).toBe(`${JSON.stringify(toHar(list, '1.0.0'), null, 2)}\n`);
  expect(fs.readdirSync(path.dirname(file))).toEqual(['run.har']);
});

it('writes text of any width whole: pieces that straddle the buffer, and one larger than it', () => {
  const file = path.join(dir, 'wide.har');
  const har = openHarFile(file, '1.0.0');
  const wide = (n: number, body: string): Exchange => ({
    ...exchange(n),
    response: { status: 200, headers: { 'content-type': 'text/plain; charset=utf-8' }, body },
  });
  const list = [
    ...Array.from({ length: 40 }, (_, n) => wide(n, `é€😀${n}`.repeat(300))),
    wide(40, 'ü€😀'.repeat(40_000)), // over the 64 kB buffer
    ...Array.from({ length: 40 }, (_, n) => wide(41 + n, 'a€'.repeat(700 + n))),
  ];
  for (const e of list) har.add(e);
  expect(har.close()).toBe(list.length);
  expect(fs.readFileSync(file, 'utf8')).toBe(`${JSON.stringify(toHar(list, '1.0.0'), null, 2)}\n`);
});

it('leaves nothing behind when the run fails', () => {
  const file = path.join(dir, 'failed.har');
  const har = openHarFile(file, '1.0.0');
  har.add(exchange(1));
  har.discard();
  expect(fs.readdirSync(dir).filter((f) => f.startsWith('failed'))).toEqual([]);
});
