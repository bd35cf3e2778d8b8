/**
 * Twilio SendGrid (`@sendgrid/client`, the low-level client the mail and marketing helpers build on): JSON
 * bodies, an apiKey in `Authorization` (the SDK sends `Bearer SG.…`), paths written with their `/v3`. Workflow:
 * a contact list created, read back, listed (`{result: […]}`), renamed (PATCH), deleted (then 404), a missing
 * list and a wrong key.
 */
import { Client } from '@sendgrid/client';
import { check, fails, same, uniqueName, type ClientKit, type Target } from './kit';

type SendGrid = InstanceType<typeof Client>;

interface Session {
  sg: SendGrid;
  wrong: SendGrid;
  target: Target;
  id?: string;
  name?: string;
}

function client(t: Target, key: string): SendGrid {
  const c = new Client();
  c.setApiKey(key);
  // The paths carry /v3 themselves (`url: '/v3/marketing/lists'`): the base is the host alone.
  c.setDefaultRequest('baseUrl', t.origin);
  return c;
}

const created = (s: Session): string => {
  check(s.id, 'no list id: the create did not return one');
  return s.id;
};

interface List {
  id?: string;
  name?: string;
}

async function call(sg: SendGrid, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: object) {
  const [response, data] = await sg.request({ method, url, body });
  return { status: response.statusCode, data: data as unknown };
}

export const sendgrid: ClientKit<Session> = {
  client: '@sendgrid/client 8.1.6',
  document: 'sendgrid.com.json',
  needs:
    "setDefaultRequest('baseUrl', the mock's origin: the SDK's paths carry /v3); an SG. key the keys file holds",
  keys: { key: 'SG.kit-key.0123456789abcdef', wrongKey: 'SG.kit-wrong.0123456789abcdef' },
  open: async (target) => ({
    sg: client(target, target.key),
    wrong: client(target, target.wrongKey),
    target,
  }),
  steps: [
    {
      name: 'create a contact list',
      run: async (s) => {
        s.name = uniqueName('kit', s.target);
        const { data } = await call(s.sg, 'POST', '/v3/marketing/lists', { name: s.name });
        const list = data as List;
        check(typeof list.id === 'string' && list.id.length > 0, 'the created list has no id');
        s.id = list.id;
        same('name', list.name, s.name);
      },
    },
    {
      name: 'read it back',
      run: async (s) => {
        const { data } = await call(s.sg, 'GET', `/v3/marketing/lists/${created(s)}`);
        same('id', (data as List).id, s.id);
        same('name', (data as List).name, s.name);
      },
    },
    {
      name: 'list contact lists',
      run: async (s) => {
        const { data } = await call(s.sg, 'GET', '/v3/marketing/lists?page_size=100');
        const result = (data as { result?: List[] }).result;
        check(Array.isArray(result), `no result array in ${JSON.stringify(data).slice(0, 60)}`);
        const found = result.find((l) => l.id === created(s));
        check(found, `the list (${result.length}) does not hold the created one`);
        same('name in the list', found.name, s.name);
      },
    },
    {
      name: 'rename it',
      run: async (s) => {
        const { data } = await call(s.sg, 'PATCH', `/v3/marketing/lists/${created(s)}`, {
          name: `${s.name}-2`,
        });
        same('name', (data as List).name, `${s.name}-2`);
        const again = await call(s.sg, 'GET', `/v3/marketing/lists/${created(s)}`);
        same('name read back', (again.data as List).name, `${s.name}-2`);
      },
    },
    {
      name: 'delete it, then 404',
      run: async (s) => {
        await call(s.sg, 'DELETE', `/v3/marketing/lists/${created(s)}`);
        await fails(() => call(s.sg, 'GET', `/v3/marketing/lists/${created(s)}`), 404);
      },
    },
    {
      name: 'missing list is 404',
      run: (s) =>
        fails(() => call(s.sg, 'GET', '/v3/marketing/lists/00000000-0000-4000-8000-00000000kit0'), 404),
    },
    {
      name: 'wrong key is 401',
      requires: 'security',
      run: (s) => fails(() => call(s.wrong, 'GET', '/v3/marketing/lists'), 401),
    },
  ],
};
