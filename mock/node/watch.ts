/**
 * --watch: reload the spec, keys, seed and settings files when they change, without a restart and without touching the
 * stores (stored records and counters stay). A reload builds a whole new Deps and swaps it in with one
 * assignment to the holder the HTTP adapter reads at the start of each request, so a request sees either the
 * old version or the new one, never a mix. A broken edit is refused with the reason logged; the last good
 * version keeps serving.
 */
import fs from 'node:fs';
import { readFile } from 'node:fs/promises';
import { loadSpec } from '../../spec/load';
import { buildDeps } from '../core/engine';
import { applySettings, DEFAULT_PLANS } from '../core/settings';
import type { NodeDeps as Deps } from './deps';
import { createExampleEngine } from './engines';
import { loadKeysFile } from './keys-file';
import type { Logger } from '../core/log';
import { loadSeedFile } from './seed';
import { readSettingsFile } from './settings-file';
import { buildSpecDocuments } from '../../spec/pages/documents';

/** The files a reload reads; null where the value was given directly (tests) and has no file. */
export interface ReloadSources {
  specPath: string;
  keysFile: string | null;
  seedFile: string | null;
  /** The --settings file (its values with the command line's over them); null for the shipped settings. */
  settingsFile?: string | null;
}

export type ReloadOutcome = { ok: true; deps: Deps } | { ok: false; error: string };

/** Load every source again and build the next Deps from `current`, or an error value naming the problem. */
export async function reloadDeps(current: Deps, sources: ReloadSources): Promise<ReloadOutcome> {
  let specText: string;
  try {
    specText = await readFile(sources.specPath, 'utf8');
  } catch (err) {
    return { ok: false, error: `spec ${sources.specPath}: ${(err as Error).message}` };
  }
  const loaded = await loadSpec(sources.specPath);
  if (!loaded.ok) return { ok: false, error: loaded.error };
  const keys = sources.keysFile
    ? await loadKeysFile(sources.keysFile, { allowShortKeys: current.allowShortKeys })
    : null;
  if (keys && !keys.ok) return keys;
  const seed = sources.seedFile ? await loadSeedFile(sources.seedFile, loaded.spec) : null;
  if (seed && !seed.ok) return seed;
  const settings = sources.settingsFile ? readSettingsFile(sources.settingsFile) : null;
  if (settings && !settings.ok) return settings;
  const config = settings
    ? { ...current.config, ...applySettings(settings.settings, current.config.settingsFlags, DEFAULT_PLANS) }
    : current.config;
  let documents;
  try {
    documents = buildSpecDocuments(specText, loaded.spec.basePath);
  } catch (err) {
    return { ok: false, error: `spec ${sources.specPath}: ${(err as Error).message}` };
  }
  const specChanged = !current.ui || !current.ui.documents.yaml.equals(documents.yaml);
  let next;
  try {
    // The stores are kept (records and counters stay); everything drawn from the files is built anew.
    next = await buildDeps({
      document: loaded.spec,
      keys: keys ? keys.file : current.keyring.entries().map(({ key, plan }) => ({ key, plan })),
      seed: seed ? seed.seed : current.seed,
      clock: current.clock,
      log: current.log,
      config,
      allowShortKeys: true,
      records: current.records,
      limiter: current.limiter,
      sleep: current.sleep,
      outbox: current.outbox,
      engine: specChanged
        ? createExampleEngine(current.config.exampleEngine, sources.specPath)
        : current.engine,
    });
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
  if (!keys) next.keyring = current.keyring;
  return {
    ok: true,
    deps: {
      ...next,
      allowShortKeys: current.allowShortKeys,
      callbacks: current.callbacks,
      ui: current.ui && { ...current.ui, documents },
    },
  };
}

/** Reload now, as a file change does; resolves once the new version serves or was refused. */
export type Reload = () => Promise<ReloadOutcome>;

/** Reloads into `holder`, one at a time (a change during a reload triggers one more), logging the outcome. */
export function createReloader(holder: { current: Deps }, sources: ReloadSources, log: Logger): Reload {
  let running: Promise<ReloadOutcome> | null = null;
  let again = false;
  const reloadOnce = async (): Promise<ReloadOutcome> => {
    const before = holder.current;
    const outcome = await reloadDeps(before, sources);
    if (!outcome.ok) {
      log.event('error', 'reload refused; the last good version keeps serving', { reason: outcome.error });
      return outcome;
    }
    holder.current = outcome.deps; // the one swap
    log.event('info', 'reloaded spec, keys and seed', { files: sourceFiles(sources) });
    // A new spec means a new example engine: load it now, not on the first request that needs it.
    if (outcome.deps.engine !== before.engine) setImmediate(() => void warm(outcome.deps));
    return outcome;
  };
  const reload: Reload = () => {
    if (running) {
      again = true;
      return running;
    }
    running = reloadOnce().finally(() => {
      running = null;
      if (again) {
        again = false;
        void reload();
      }
    });
    return running;
  };
  return reload;
}

const sourceFiles = (sources: ReloadSources): string[] =>
  [sources.specPath, sources.keysFile, sources.seedFile, sources.settingsFile].filter(
    (f): f is string => !!f,
  );

/** Watch the source files (stat polling, which survives editors that replace the file); returns `stop`. */
export function watchSources(sources: ReloadSources, reload: Reload, intervalMs = 500): () => void {
  const files = sourceFiles(sources);
  let timer: NodeJS.Timeout | undefined;
  const onChange = (curr: fs.Stats, prev: fs.Stats) => {
    if (curr.mtimeMs === prev.mtimeMs && curr.size === prev.size) return;
    clearTimeout(timer);
    timer = setTimeout(() => void reload(), 50); // an editor's save is often several writes
  };
  for (const file of files) fs.watchFile(file, { interval: intervalMs, persistent: false }, onChange);
  return () => {
    clearTimeout(timer);
    for (const file of files) fs.unwatchFile(file, onChange);
  };
}

async function warm(deps: Deps): Promise<void> {
  const engine = deps.engine as Deps['engine'] & { warm?: () => Promise<void> };
  await engine.warm?.().catch(() => undefined);
}
