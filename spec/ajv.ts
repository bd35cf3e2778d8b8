/** The one ajv configuration both tools use: JSON Schema 2020-12 (OpenAPI 3.1), strict, with formats. */
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/** OpenAPI keywords that are annotations, not assertions; strict mode must know them. */
const OPENAPI_ANNOTATIONS = ['example', 'xml', 'externalDocs', 'discriminator', 'x-illustrative'];

/** Build a strict ajv instance that understands OpenAPI 3.1 schemas (int64 and friends included). */
export function createAjv(options: { validateSchema?: boolean } = {}): Ajv2020 {
  const ajv = new Ajv2020({
    ...options,
    strict: true,
    strictTypes: false, // OpenAPI schemas such as `{}` (any) are legitimate
    allErrors: true,
    allowUnionTypes: true,
  });
  addFormats(ajv);
  for (const keyword of OPENAPI_ANNOTATIONS) ajv.addKeyword({ keyword });
  return ajv;
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
