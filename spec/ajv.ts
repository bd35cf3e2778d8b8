/** The one ajv configuration both tools use: JSON Schema 2020-12 (OpenAPI 3.1), strict, with formats. */
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/** OpenAPI keywords that are annotations, not assertions; strict mode must know them. */
const OPENAPI_ANNOTATIONS = ['example', 'xml', 'externalDocs', 'discriminator', 'x-illustrative'];

/** Build a strict ajv instance that understands OpenAPI 3.1 schemas (int64 and friends included). */
export function createAjv(): Ajv2020 {
  const ajv = new Ajv2020({
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
 * The process's one ajv instance, built on first use. ajv compiles the 2020-12 meta-schema once per instance,
 * which costs more than every schema of the spec together: sharing it keeps start-up short.
 */
export function sharedAjv(): Ajv2020 {
  shared ??= createAjv();
  return shared;
}
