/**
 * What a created record says of the file uploaded with it: the item's fields that name the file (`filename`,
 * `file_name`), its size (`bytes`, `size`) and its type (`mime_type`, `content_type`) take the first file part's
 * name, size and type, where the body did not set them itself. A field of the form is stored as a JSON field
 * is (the item's names only: mock/core/records.ts). Pure.
 */
import type { UploadedFile } from '../../spec/http/multipart';
import type { Resource } from '../../spec/resource-types';
import { objectShape, typesOf, type Schema } from '../../spec/schema-shape';

type Fact = 'filename' | 'size' | 'contentType';

const NAME = /^(file_?name|original_?(file_?)?name|name_?of_?file)$/i;
const SIZE = /^(bytes|size|file_?size|size_?(in_?)?bytes|byte_?size|content_?length|length)$/i;
const TYPE = /^(content_?type|mime_?type|media_?type|mimetype|file_?type)$/i;

/** The fact an item property holds, by its name and type; undefined for any other property. */
function factOf(name: string, schema: Schema | undefined): Fact | undefined {
  const types = typesOf(schema);
  const number = types.includes('integer') || types.includes('number');
  const text = types.length === 0 || types.includes('string');
  if (NAME.test(name) && text) return 'filename';
  if (SIZE.test(name) && number) return 'size';
  if (TYPE.test(name) && text) return 'contentType';
  return undefined;
}

const facts = new WeakMap<Resource, [string, Fact][]>();

/** The item's properties that hold a fact of an upload, worked out once per resource. */
function factsOf(r: Resource): [string, Fact][] {
  let out = facts.get(r);
  if (out) return out;
  out = [];
  for (const [name, schema] of Object.entries(objectShape(r.itemSchema)?.properties ?? {})) {
    const fact = factOf(name, schema as Schema);
    if (fact) out.push([name, fact]);
  }
  facts.set(r, out);
  return out;
}

/** Pure: the create's input with the item's file fields filled from the first uploaded file. */
export function withUpload(input: unknown, files: readonly UploadedFile[] | undefined, r: Resource): unknown {
  const file = files?.[0];
  if (!file || typeof input !== 'object' || input === null || Array.isArray(input)) return input;
  const out = { ...(input as Record<string, unknown>) };
  for (const [name, fact] of factsOf(r)) {
    const value = file[fact];
    if (!(name in out) && value !== undefined) out[name] = value;
  }
  return out;
}
