/** `{{name}}` templates in scenario values; a value that is exactly `{{name}}` keeps the variable's type. */

export interface Rendered {
  value: unknown;
  missing: string[];
}

const WHOLE = /^\{\{\s*([A-Za-z_][\w]*)\s*\}\}$/;
const ANY = /\{\{\s*([A-Za-z_][\w]*)\s*\}\}/g;

/** Replace templates in strings, arrays and objects (keys are left alone); unknown names are listed. */
export function render(value: unknown, vars: Readonly<Record<string, unknown>>): Rendered {
  const missing: string[] = [];
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      const whole = WHOLE.exec(v)?.[1];
      if (whole !== undefined) {
        if (!(whole in vars)) missing.push(whole);
        return vars[whole] ?? v;
      }
      return v.replace(ANY, (text, name: string) => {
        if (!(name in vars)) {
          missing.push(name);
          return text;
        }
        return String(vars[name]);
      });
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object')
      return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return { value: walk(value), missing };
}

/** The value at a JSON pointer (`''` and `'/'` are the whole document), or undefined. */
export function getPointer(doc: unknown, pointer: string): unknown {
  if (pointer === '' || pointer === '/') return doc;
  let node: unknown = doc;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}
