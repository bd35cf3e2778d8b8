/**
 * Documents written from Ruby or PCRE code carry their anchors (`\A…\z`, `\Z`): JavaScript has none of them, so
 * such a pattern never matches (without the `u` flag `\A` is a literal `A`) and every valid value is refused.
 * The anchors are translated to JavaScript's; everything else is left as written.
 */
const ANCHORS: Readonly<Record<string, string>> = {
  A: '^', // start of the string
  z: '$', // end of the string (no `m` flag: `$` is the end only)
  Z: '(?=\\n?$)', // end of the string, or before a final newline
};

/** `pattern` with Ruby/PCRE string anchors written as JavaScript ones (outside character classes). */
export function toJavaScriptPattern(pattern: string): string {
  if (!/\\[AzZ]/.test(pattern)) return pattern;
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c === '\\' && i + 1 < pattern.length) {
      const next = pattern[i + 1] as string;
      const anchor = inClass ? undefined : ANCHORS[next];
      out += anchor ?? c + next;
      i++;
      continue;
    }
    if (c === '[' && !inClass) inClass = true;
    else if (c === ']' && inClass) inClass = false;
    out += c;
  }
  return out;
}
