/**
 * `--record FILE.har`: each exchange written to disk as it completes (spec/report/har.ts's harWriter), so the run
 * never holds its traffic. The text goes to `FILE.<pid>.partial` and is renamed to FILE when the run ends: a run
 * that stops early leaves no half-written file under the name asked for.
 */
import fs from 'node:fs';
import path from 'node:path';
import { harWriter } from '../../spec/report/har';
import type { Exchange } from '../types';

/** Bytes gathered before one write to disk. */
const FLUSH_AT = 64 * 1024;

export interface HarFile {
  add(exchange: Exchange): void;
  /** Ends the document and gives it its name; returns the number of exchanges recorded. */
  close(): number;
  /** Removes what was written (the run failed). */
  discard(): void;
}

export function openHarFile(file: string, version: string): HarFile {
  const target = path.resolve(file);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const partial = `${target}.${process.pid}.partial`;
  const fd = fs.openSync(partial, 'w');
  let pending: string[] = [];
  let size = 0;
  const flush = () => {
    if (size === 0) return;
    fs.writeSync(fd, pending.join(''));
    pending = [];
    size = 0;
  };
  const writer = harWriter(version, (text) => {
    pending.push(text);
    size += text.length;
    if (size >= FLUSH_AT) flush();
  });
  let open = true;
  return {
    add: (exchange) => writer.add(exchange),
    close() {
      const count = writer.end();
      pending.push('\n');
      size += 1;
      flush();
      fs.closeSync(fd);
      open = false;
      fs.renameSync(partial, target);
      return count;
    },
    discard() {
      if (open) fs.closeSync(fd);
      open = false;
      fs.rmSync(partial, { force: true });
    },
  };
}
