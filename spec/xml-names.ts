/**
 * Pure: element and attribute names of XML answers (issue 40), for spec/xml.ts. A name comes from the `xml`
 * object's `name` (which documents write with a prefix too: S3's `xsi:type`, PeerTube's `media:content`) or the
 * property's, and a prefix from its `prefix`. A reader matches local names, so the writer and the reader agree on
 * the local part; the prefix is written only where it is declared (by this element's `namespace`, an
 * ancestor's, or, for `xsi` and `xml`, the W3C's own): a prefix declared nowhere would make the answer XML that
 * no namespace-aware parser reads, so it is left out and the name stands unprefixed.
 */

/** A name XML accepts, without a colon: characters it refuses become `_`. */
export const xmlName = (name: string): string => {
  const safe = name.replace(/[^\w.-]/g, '_');
  return /^[A-Za-z_]/.test(safe) ? safe : `_${safe}`;
};

/** The name as written split at its first colon: the local part (made an XML name) and the prefix, if any. */
export function nameParts(name: string, prefix?: string): { local: string; prefix?: string } {
  const colon = name.indexOf(':');
  const local = xmlName(colon > 0 ? name.slice(colon + 1) : name);
  const given = prefix ?? (colon > 0 ? name.slice(0, colon) : undefined);
  return given ? { local, prefix: xmlName(given) } : { local };
}

/** The local name a reader of the schema matches an element or attribute by. */
export const localXmlName = (name: string): string => nameParts(name).local;

/** Prefixes bound by the W3C without a document saying so (`xml` is bound in every XML document). */
const KNOWN: Record<string, string> = { xsi: 'http://www.w3.org/2001/XMLSchema-instance' };

const escapeAttr = (s: string): string =>
  s.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c] ?? c);

export interface Qualified {
  /** The name to write (`prefix:local` or `local`). */
  q: string;
  /** The namespace declaration to write on the element (` xmlns:p="…"`), or ''. */
  decl: string;
  /** The prefixes in scope for what the element holds. */
  scope: ReadonlySet<string>;
}

/** How to write `name` with its `xml` object's `prefix` and `namespace`, given the prefixes declared above. */
export function qualify(
  name: string,
  xml: { prefix?: string; namespace?: string },
  scope: ReadonlySet<string>,
  attribute = false,
): Qualified {
  const { local, prefix } = nameParts(name, xml.prefix);
  if (!prefix) {
    // An attribute without a prefix is in no namespace: a default namespace does not apply to it.
    const decl = xml.namespace && !attribute ? ` xmlns="${escapeAttr(xml.namespace)}"` : '';
    return { q: local, decl, scope };
  }
  if (prefix === 'xml' || (scope.has(prefix) && !xml.namespace))
    return { q: `${prefix}:${local}`, decl: '', scope };
  const uri = xml.namespace ?? KNOWN[prefix];
  if (!uri) return { q: local, decl: '', scope };
  const decl = ` xmlns:${prefix}="${escapeAttr(uri)}"`;
  return { q: `${prefix}:${local}`, decl, scope: new Set([...scope, prefix]) };
}
