// The pet store package's own environment names, read before the engine's: PETSTORE_API_KEY and
// PETSTORE_QUOTA_KEY (the names of its first releases and its CI recipes) stand for CONFORMANCE_API_KEY and
// CONFORMANCE_QUOTA_KEY, PETSTORE_SPEC_CACHE for SPEC_VALIDATION_CACHE; an engine name that is set wins.
'use strict';

const ALIASES = {
  CONFORMANCE_API_KEY: 'PETSTORE_API_KEY',
  CONFORMANCE_QUOTA_KEY: 'PETSTORE_QUOTA_KEY',
  SPEC_VALIDATION_CACHE: 'PETSTORE_SPEC_CACHE',
};

/** `env` with each engine name filled from its pet store name when only that one is set (also in process.env). */
function withLegacyNames(env) {
  for (const [name, legacy] of Object.entries(ALIASES))
    if (!env[name] && env[legacy]) env[name] = env[legacy];
  return env;
}

module.exports = { withLegacyNames };
