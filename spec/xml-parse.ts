/**
 * Pure: a small, strict XML reader for answers (issue 40): elements, attributes, text, CDATA, the five named
 * entities and character references; comments, processing instructions and the declaration skipped. A DOCTYPE
 * is refused (no entity expansion, so no billion laughs) and depth is bounded: a hostile body cannot grow it.
 */

export interface XmlElement {
  /** The local name (a `prefix:` dropped: a reader of the schema matches names without their namespace prefix). */
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const MAX_DEPTH = 200;
const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

const localName = (qname: string): string => qname.slice(qname.indexOf(':') + 1);

/** `&lt;`, `&#65;`, `&#x41;` decoded; an unknown entity is an error. */
export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-fA-F]+|#\d+|\w+);|&/g, (whole, ref: string | undefined) => {
    if (ref === undefined) throw new Error('a bare "&" in text');
    if (ref.startsWith('#x')) return String.fromCodePoint(parseInt(ref.slice(2), 16));
    if (ref.startsWith('#')) return String.fromCodePoint(parseInt(ref.slice(1), 10));
    const named = NAMED[ref];
    if (named === undefined) throw new Error(`unknown entity ${whole}`);
    return named;
  });
}

const TAG = /^<([A-Za-z_][\w.:-]*)((?:\s+[A-Za-z_][\w.:-]*\s*=\s*(?:"[^"<]*"|'[^'<]*'))*)\s*(\/?)>/;
const ATTR = /([A-Za-z_][\w.:-]*)\s*=\s*(?:"([^"<]*)"|'([^'<]*)')/g;

function attributesOf(raw: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const m of raw.matchAll(ATTR)) {
    const name = m[1] ?? '';
    if (name === 'xmlns' || name.startsWith('xmlns:')) continue;
    attrs[localName(name)] = decodeEntities(m[2] ?? m[3] ?? '');
  }
  return attrs;
}

/** Skips a comment, processing instruction or CDATA at `i`; returns [next index, CDATA text] or undefined. */
function skipMarkup(xml: string, i: number): [number, string] | undefined {
  const ends: [string, string][] = [
    ['<!--', '-->'],
    ['<?', '?>'],
    ['<![CDATA[', ']]>'],
  ];
  for (const [open, close] of ends) {
    if (!xml.startsWith(open, i)) continue;
    const end = xml.indexOf(close, i + open.length);
    if (end < 0) throw new Error(`unclosed ${open}`);
    return [end + close.length, open === '<![CDATA[' ? xml.slice(i + open.length, end) : ''];
  }
  if (xml.startsWith('<!', i)) throw new Error('a DOCTYPE or declaration is not accepted');
  return undefined;
}

/** The root element of `xml`; throws naming the first problem (unclosed or mismatched tags, two roots, ...). */
export function parseXml(xml: string): XmlElement {
  const stack: { qname: string; el: XmlElement }[] = [];
  let root: XmlElement | undefined;
  let i = 0;
  while (i < xml.length) {
    const lt = xml.indexOf('<', i);
    const text = xml.slice(i, lt < 0 ? xml.length : lt);
    const top = stack[stack.length - 1];
    if (top) top.el.text += decodeEntities(text);
    else if (text.trim() !== '') throw new Error('text outside the root element');
    if (lt < 0) break;
    const skipped = skipMarkup(xml, lt);
    if (skipped) {
      if (top) top.el.text += skipped[1];
      i = skipped[0];
      continue;
    }
    if (xml.startsWith('</', lt)) {
      const m = /^<\/([A-Za-z_][\w.:-]*)\s*>/.exec(xml.slice(lt, lt + 1024));
      if (!m || !top || top.qname !== m[1]) throw new Error(`unexpected closing tag at ${lt}`);
      stack.pop();
      i = lt + m[0].length;
      continue;
    }
    const m = TAG.exec(xml.slice(lt, lt + 65_536));
    if (!m) throw new Error(`malformed tag at ${lt}`);
    const qname = m[1] ?? '';
    const el: XmlElement = {
      name: localName(qname),
      attrs: attributesOf(m[2] ?? ''),
      children: [],
      text: '',
    };
    if (top) top.el.children.push(el);
    else if (root) throw new Error('more than one root element');
    else root = el;
    if (m[3] !== '/') stack.push({ qname, el });
    if (stack.length > MAX_DEPTH) throw new Error(`nested deeper than ${MAX_DEPTH}`);
    i = lt + m[0].length;
  }
  if (stack.length > 0) throw new Error(`<${stack[stack.length - 1]?.qname ?? ''}> is not closed`);
  if (!root) throw new Error('no root element');
  return root;
}
