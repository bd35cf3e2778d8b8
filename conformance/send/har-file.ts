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
  // The text is encoded straight into one buffer, written when full: no joined copy of the pieces is built.
  const buffer = Buffer.allocUnsafe(FLUSH_AT);
  let used = 0;
  const flush = () => {
    for (let at = 0; at < used;) at += fs.writeSync(fd, buffer, at, used - at);
    used = 0;
  };
  const writer = harWriter(version, (text) => {
    // UTF-8 takes at most 3 bytes per UTF-16 unit: a piece that may not fit goes after what the buffer holds.
    if (used + text.length * 3 > FLUSH_AT) flush();
    if (text.length * 3 > FLUSH_AT) fs.writeSync(fd, text);
    else used += buffer.write(text, used);
  });
  let open = true;
  return {
    add: (exchange) => writer.add(exchange),
    close() {
      const count = writer.end();
      flush();
      fs.writeSync(fd, '\n');
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
