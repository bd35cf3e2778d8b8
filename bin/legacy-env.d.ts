/** `env` with each engine name filled from its pet store name when only that one is set. */
export function withLegacyNames(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
