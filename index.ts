/**
 * The package's main entry point (`petstore-contract-tools`): the mock server for Node and the conformance runner.
 * The engine without Node: `petstore-contract-tools/fetch` (createFetchHandler) and `petstore-contract-tools/msw`
 * (createMswHandlers), which import no node:* module.
 */
export { createMockServer, type MockServer, type MockServerOptions } from './mock/node';
export * from './conformance';
