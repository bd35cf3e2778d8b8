// Jest setup of the "behaviour (fetch adapter)" project: the behaviour suites build their mock with the fetch adapter.
globalThis.MOCK_ADAPTER = 'fetch';
