/** Which rules a run reports, from --include / --exclude / --rule; opt-in tags (quota) need --include. */
import { OPT_IN_TAGS } from '../rules';
import type { Rule } from '../types';

export interface Selection {
  include?: string[];
  exclude?: string[];
  rules?: string[];
}

export type SelectResult = { ok: true; rules: Rule[] } | { ok: false; error: string };

/**
 * `--include` of an opt-in tag only adds those rules; `--include` of any other tag narrows the run to
 * rules carrying an included tag. `--rule` narrows to the named ids. `--exclude` always removes.
 */
export function selectRules(all: readonly Rule[], sel: Selection): SelectResult {
  const tags = new Set(all.flatMap((r) => r.tags));
  const unknownTag = [...(sel.include ?? []), ...(sel.exclude ?? [])].find((t) => !tags.has(t));
  if (unknownTag)
    return { ok: false, error: `unknown tag "${unknownTag}" (tags: ${[...tags].sort().join(', ')})` };
  const unknownRule = (sel.rules ?? []).find((id) => !all.some((r) => r.id === id));
  if (unknownRule) return { ok: false, error: `unknown rule "${unknownRule}" (see --help for the list)` };
  const include = new Set(sel.include ?? []);
  const narrowing = [...include].filter((t) => !OPT_IN_TAGS.includes(t));
  const named = new Set(sel.rules ?? []);
  const rules = all.filter((r) => {
    if (r.tags.some((t) => (sel.exclude ?? []).includes(t))) return false;
    if (named.size > 0) return named.has(r.id);
    const optIn = r.tags.filter((t) => OPT_IN_TAGS.includes(t));
    if (optIn.length > 0 && !optIn.some((t) => include.has(t))) return false;
    if (narrowing.length > 0) return r.tags.some((t) => include.has(t));
    return true;
  });
  return { ok: true, rules };
}
