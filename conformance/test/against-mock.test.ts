/**
 * End to end: the project's mock on a real port (127.0.0.1, port 0), the default suite plus the quota
 * rules, every rule passing. Skipped (with a passing placeholder) until mock/index.ts exists.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runConformance } from '../index';

const MOCK = path.join(__dirname, '..', '..', 'mock', 'index.ts');

/** The part of mock/index.ts this test relies on. */
interface MockModule {
  createMockServer(options?: { keysFile?: string; seedFile?: string | null; quiet?: boolean }): Promise<{
    listen(port?: number, host?: string): Promise<string>;
    close(): Promise<void>;
  }>;
}

if (!fs.existsSync(MOCK)) {
  it('runs against the mock once mock/index.ts exists', () => {
    expect(fs.existsSync(MOCK)).toBe(false);
  });
} else {
  describe('against the mock server', () => {
    it('passes every rule, the quota rules included (with a fresh free key of their own)', async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'conformance-mock-'));
      const keysFile = path.join(dir, 'keys.json');
      fs.writeFileSync(
        keysFile,
        JSON.stringify({
          keys: [
            { key: 'conformance-main-key', plan: 'pro' },
            { key: 'conformance-quota-key', plan: 'free' },
          ],
        }),
      );
      const { createMockServer } = (await import(MOCK)) as MockModule;
      const mock = await createMockServer({ keysFile, seedFile: null, quiet: true });
      const target = await mock.listen(0, '127.0.0.1');
      try {
        const report = await runConformance({
          target,
          key: 'conformance-main-key',
          quotaKey: 'conformance-quota-key',
          include: ['quota'],
          seed: 1,
          maxWaitMs: 2000,
        });
        const notPassing = report.rules
          .filter((r) => r.status !== 'pass')
          .map((r) => ({ id: r.id, status: r.status, evidence: r.evidence }));
        expect(notPassing).toEqual([]);
      } finally {
        await mock.close();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}
