/**
 * A path template as the document writes it, split into segments: literal text, or a segment holding one or more
 * parameters with text around them (`{id}`, `{id}.json`, `{a}-{b}`, `{name}:verb`). spec/http/match.ts routes
 * with it; spec/compile.ts keeps one regular expression per operation for readers of one path.
 */
export type Segment =
  { kind: 'literal'; text: string } | { kind: 'template'; pattern: RegExp; names: string[]; text: number };

/** A path template split into segments; `query` is the query a key such as `/#Action=X` carries. */
export interface PathTemplate {
  segments: Segment[];
  params: string[];
  query?: Array<[string, string]>;
}

const escapeRe = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `/items/{id}.json` -> its segments; a segment's text outside `{…}` must be there as written. */
export function parseTemplate(path: string): PathTemplate {
  const params: string[] = [];
  const segments = path.split('/').map((segment): Segment => {
    if (!segment.includes('{')) return { kind: 'literal', text: segment };
    const names: string[] = [];
    let text = 0;
    const source = segment
      .split(/(\{[^}]*\})/)
      .map((part) => {
        const name = /^\{([^}]*)\}$/.exec(part)?.[1];
        if (name === undefined) {
          text += part.length;
          return escapeRe(part);
        }
        names.push(name);
        return '([^/]+?)';
      })
      .join('');
    params.push(...names);
    return { kind: 'template', pattern: new RegExp(`^${source}$`), names, text };
  });
  return { segments, params };
}

/** The query a path key carries after `#` or `?` (`/#Action=X&Version=1`), and the path before it. */
export function splitQueryKey(path: string): { path: string; query: Array<[string, string]> } | undefined {
  const at = path.search(/[#?]/);
  if (at < 0) return undefined;
  const query = path
    .slice(at + 1)
    .split('&')
    .filter(Boolean)
    .map((pair): [string, string] => {
      const eq = pair.indexOf('=');
      return eq < 0 ? [pair, ''] : [pair.slice(0, eq), pair.slice(eq + 1)];
    });
  return query.length ? { path: path.slice(0, at) || '/', query } : undefined;
}

/** A regular expression for the whole template (for readers that test one path against one operation). */
export function templatePattern(path: string): { pattern: RegExp; params: string[] } {
  const { segments, params } = parseTemplate(path);
  const source = segments
    .map((s) => (s.kind === 'literal' ? escapeRe(s.text) : s.pattern.source.slice(1, -1)))
    .join('/');
  return { pattern: new RegExp(`^${source}$`), params };
}
