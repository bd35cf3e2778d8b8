/**
 * Pure: work around a bug in the OpenAPI 3.1 schema swagger-parser 12 validates with (2021-04-15): it names
 * the Server Variable's `description` `descriptions`, so every valid document that describes a server
 * variable is refused. The descriptions are taken out before validation and put back after it.
 */

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

interface Hidden {
  at: string[];
  description: unknown;
}

/** Remove every server variable's `description` from `document`; the returned function puts them back. */
export function hideServerVariableDescriptions(document: Json): (validated: unknown) => void {
  const hidden: Hidden[] = [];
  const seen = new WeakSet<object>();
  const server = (node: unknown, at: string[]): void => {
    if (!isObject(node) || !isObject(node.variables)) return;
    for (const [name, variable] of Object.entries(node.variables)) {
      if (!isObject(variable) || !('description' in variable)) continue;
      hidden.push({ at: [...at, 'variables', name], description: variable.description });
      delete variable.description;
    }
  };
  const walk = (node: unknown, at: string[]): void => {
    if (typeof node !== 'object' || node === null || seen.has(node)) return;
    seen.add(node);
    for (const [key, value] of Object.entries(node)) {
      if (key === 'servers' && Array.isArray(value))
        value.forEach((s, i) => server(s, [...at, key, String(i)]));
      else if (key === 'server') server(value, [...at, key]); // a Link Object's server
      if (key !== 'schema' && key !== 'example' && key !== 'examples') walk(value, [...at, key]);
    }
  };
  walk(document, []);
  return (validated) => {
    for (const { at, description } of hidden) {
      const variable = at.reduce<unknown>(
        (node, key) => (isObject(node) || Array.isArray(node) ? (node as Json)[key] : undefined),
        validated,
      );
      if (isObject(variable)) variable.description = description;
    }
  };
}
