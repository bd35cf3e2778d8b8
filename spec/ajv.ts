/** The one ajv configuration both tools use: JSON Schema 2020-12 (OpenAPI 3.1), strict, with formats. */
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { _, str } from 'ajv/dist/compile/codegen';
import { escapePointer, forEachSchema } from './schema-walk';
import { ABSENT_KEYWORD } from './schema-views';
import { toJavaScriptPattern } from './regex-dialect';

/** OpenAPI keywords that are annotations, not assertions; strict mode must know them. */
const OPENAPI_ANNOTATIONS = ['example', 'xml', 'externalDocs', 'discriminator', 'x-illustrative', '$anchor'];

/** Build a strict ajv instance that understands OpenAPI 3.1 schemas (int64 and friends included). */
export function createAjv(options: { validateSchema?: boolean; inlineRefs?: boolean } = {}): Ajv2020 {
  const ajv = new Ajv2020({
    ...options,
    // Strict mode's rules (a required property not defined, a union type…) are style, not validity: a valid
    // document is never refused for one. They are noted and reported as one warning line at start.
    strict: 'log',
    logger: { log: () => undefined, warn: noteStrict, error: noteStrict },
    strictTypes: false, // OpenAPI schemas such as `{}` (any) are legitimate
    allErrors: true,
    allowUnionTypes: true,
    code: { regExp: lenientRegExp },
  });
  addFormats(ajv);
  for (const keyword of OPENAPI_ANNOTATIONS) ajv.addKeyword({ keyword });
  addAbsentKeyword(ajv);
  return ajv;
}

/** The response view's keyword: each named property must be absent (a writeOnly value is never sent back). */
function addAbsentKeyword(ajv: Ajv2020): void {
  ajv.addKeyword({
    keyword: ABSENT_KEYWORD,
    type: 'object',
    schemaType: 'array',
    error: {
      message: ({ params }) => str`must not have property ${params.property} (writeOnly)`,
      params: ({ params }) => _`{property: ${params.property}}`,
    },
    code(cxt) {
      const { data, schema } = cxt;
      for (const name of schema as string[]) {
        cxt.setParams({ property: name });
        cxt.fail(_`${data}[${name}] !== undefined`);
      }
    },
  });
}

/**
 * A `pattern` is compiled with the `u` flag as JSON Schema asks, but OpenAPI documents are full of patterns
 * written for JavaScript without it (`^[\\w-.]+$`): a valid document is never refused for one, so such a
 * pattern is compiled without the flag and noted. Ruby/PCRE anchors (`\A`, `\z`) are translated first.
 */
const lenientRegExp = Object.assign(
  (written: string, flags: string): RegExp => {
    const pattern = toJavaScriptPattern(written);
    try {
      return new RegExp(pattern, flags);
    } catch (error) {
      if (!flags.includes('u')) throw error;
      noteStrict(
        `pattern ${JSON.stringify(pattern)} is not a unicode regular expression; compiled without the u flag`,
      );
      return new RegExp(pattern, flags.replace('u', ''));
    }
  },
  { code: 'new RegExp' },
);

const strictNotes: string[] = [];
const MAX_NOTES = 1000;

function noteStrict(...args: unknown[]): void {
  if (strictNotes.length < MAX_NOTES) strictNotes.push(args.map(String).join(' '));
}

/** One line on what ajv's strict mode noticed since the last call (none when it noticed nothing). */
export function takeStrictWarnings(): string[] {
  if (strictNotes.length === 0) return [];
  const [first] = strictNotes;
  const count = strictNotes.length;
  strictNotes.length = 0;
  const more = count > 1 ? ` (and ${count - 1} more${count >= MAX_NOTES ? '+' : ''})` : '';
  return [`unusual schema constructs accepted as written: ${first}${more}`];
}

let shared: Ajv2020 | undefined;

/**
 * The process's one ajv instance, built on first use. It does not check schemas against the meta-schema by
 * itself: compiling the 2020-12 meta-schema costs more than every schema of the spec together. The spec
 * loader checks the spec's schemas explicitly whenever the document is newly validated; the mock's own schemas
 * (keys file, policy) are fixed in code and covered by tests.
 */
export function sharedAjv(): Ajv2020 {
  shared ??= createAjv({ validateSchema: false });
  return shared;
}

/** What a document made an ajv instance accept that it did not know: kept to warn again on a reload. */
interface Admitted {
  formats: Set<string>;
  keywords: Set<string>;
}
const admittedBy = new WeakMap<Ajv2020, Admitted>();

/** A keyword ajv can be taught: the name rule of `ajv.addKeyword`. */
const TEACHABLE = /^[a-z_$][a-z0-9_$:-]*$/i;

/**
 * Teach `ajv` what `document`'s schemas use beyond JSON Schema, so that compiling them never fails on it:
 * vendor extensions (`x-…`) become silent annotations; an unknown `format` is accepted without checking and an
 * unknown keyword is ignored, one warning each (returned, for the caller to print). JSON Schema allows both, so
 * neither refuses a document; the warning says what the mock will not check (`minLenght`: did you mean …).
 */
export function admitDocumentVocabulary(ajv: Ajv2020, document: unknown): string[] {
  let admitted = admittedBy.get(ajv);
  if (!admitted) admittedBy.set(ajv, (admitted = { formats: new Set(), keywords: new Set() }));
  const formats = new Map<string, string>();
  const keywords = new Map<string, string>();
  const note = (found: Map<string, string>, name: string, at: () => string): void => {
    if (!found.has(name)) found.set(name, at());
  };
  forEachSchema(document, (schema, at) => {
    for (const key of Object.keys(schema)) {
      const vendor = key.startsWith('x-');
      if (isKnownKeyword(ajv, key)) {
        if (admitted.keywords.has(key)) note(keywords, key, () => `${at()}/${escapePointer(key)}`); // admitted by an earlier load
        continue;
      }
      // A name ajv cannot register cannot be ignored by it either; an annotation is all it could be.
      if (TEACHABLE.test(key)) ajv.addKeyword({ keyword: key });
      else delete schema[key];
      if (vendor) continue;
      admitted.keywords.add(key);
      note(keywords, key, () => `${at()}/${escapePointer(key)}`);
    }
    const format = schema.format;
    if (typeof format !== 'string') return;
    if (!ajv.formats[format]) {
      ajv.addFormat(format, true);
      admitted.formats.add(format);
    }
    if (admitted.formats.has(format)) note(formats, format, at);
  });
  return [
    ...[...formats].map(([f, at]) => `unknown format "${f}" (at ${at}) is accepted without checking`),
    ...[...keywords].map(([k, at]) => `unknown keyword "${k}" (at ${at}) is ignored${didYouMean(ajv, k)}`),
  ];
}

function isKnownKeyword(ajv: Ajv2020, key: string): boolean {
  return ajv.RULES.keywords[key] !== undefined || ajv.getKeyword(key) !== false;
}

/** `; did you mean "minLength"?` for a keyword one or two edits away from a JSON Schema one. */
function didYouMean(ajv: Ajv2020, key: string): string {
  const admitted = admittedBy.get(ajv)?.keywords;
  let best: string | undefined;
  let bestDistance = 3;
  for (const known of Object.keys(ajv.RULES.keywords)) {
    if (admitted?.has(known) || known.startsWith('x-')) continue;
    const d = editDistance(key.toLowerCase(), known.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [known, d];
  }
  return best ? `; did you mean "${best}"?` : '';
}

/** Levenshtein distance, with adjacent swaps counted as one edit (`minLenght`). */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = d[i] as number[];
      const up = d[i - 1] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min((up[j] as number) + 1, (row[j - 1] as number) + 1, (up[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        row[j] = Math.min(row[j] as number, ((d[i - 2] as number[])[j - 2] as number) + 1);
      }
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}
