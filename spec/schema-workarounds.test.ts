import { hideServerVariableDescriptions } from './schema-workarounds';

describe('hideServerVariableDescriptions', () => {
  it('takes the descriptions of server variables out and puts them back into the validated copy', () => {
    const server = () => ({
      url: 'https://{host}/v1',
      variables: { host: { default: 'a.example', description: 'the host' }, v: { default: '1' } },
    });
    const document = {
      servers: [server()],
      paths: { '/a': { servers: [server()], get: { servers: [server()], responses: {} } } },
    };
    const restore = hideServerVariableDescriptions(document);
    expect(JSON.stringify(document)).not.toContain('description');
    const validated = structuredClone(document);
    restore(validated);
    expect(validated.servers[0]?.variables.host).toEqual({ default: 'a.example', description: 'the host' });
    expect(validated.paths['/a'].servers[0]?.variables.host.description).toBe('the host');
    expect(validated.paths['/a'].get.servers[0]?.variables.host.description).toBe('the host');
    expect(validated.servers[0]?.variables.v).toEqual({ default: '1' });
  });
});
