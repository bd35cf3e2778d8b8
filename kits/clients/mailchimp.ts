/**
 * Mailchimp Marketing (`@mailchimp/mailchimp_marketing`, swagger-codegen): JSON bodies, HTTP Basic with the key
 * as the password, a `{lists: […]}` envelope, a member keyed by the MD5 of its lower-cased email under its list.
 * Workflow: an audience created, read back, listed, renamed (PATCH), a member added and read by its hash, the
 * audience deleted (then 404), a missing audience and a wrong key. The SDK is one module-wide instance.
 */
import crypto from 'node:crypto';
import { check, fails, same, uniqueName, type ClientKit, type Target } from './kit';

interface ListsApi {
  createList(body: object): Promise<{ id?: string; name?: string }>;
  getList(id: string): Promise<{ id?: string; name?: string }>;
  getAllLists(opts?: object): Promise<{ lists?: { id?: string; name?: string }[] }>;
  updateList(id: string, body: object): Promise<{ id?: string; name?: string }>;
  deleteList(id: string): Promise<unknown>;
  addListMember(id: string, body: object): Promise<{ id?: string; email_address?: string }>;
  getListMember(id: string, hash: string): Promise<{ id?: string; email_address?: string }>;
}
interface Mailchimp {
  basePath: string;
  setConfig(config: { apiKey: string; server: string }): void;
  lists: ListsApi;
}
// The package ships no types: the calls this kit makes, as its README documents them.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const mailchimp = require('@mailchimp/mailchimp_marketing') as Mailchimp;

interface Session {
  target: Target;
  id?: string;
  name?: string;
}

/** Point the one instance at the target with `key` (its `basePath` is the generator's base URL setting). */
function use(t: Target, key: string): ListsApi {
  mailchimp.basePath = t.base;
  mailchimp.setConfig({ apiKey: key, server: 'us1' });
  return mailchimp.lists;
}

const created = (s: Session): string => {
  check(s.id, 'no audience id: the create did not return one');
  return s.id;
};

const audience = (name: string) => ({
  name,
  permission_reminder: 'You signed up on the kit page.',
  email_type_option: false,
  contact: {
    company: 'Kit',
    address1: '1 Main St',
    city: 'Springfield',
    state: 'IL',
    zip: '62701',
    country: 'US',
  },
  campaign_defaults: { from_name: 'Kit', from_email: 'kit@example.com', subject: 'News', language: 'en' },
});

const email = 'Kit.Member@Example.com';
const hash = crypto.createHash('md5').update(email.toLowerCase()).digest('hex');

export const mailchimpKit: ClientKit<Session> = {
  client: '@mailchimp/mailchimp_marketing 3.0.80',
  document: 'mailchimp.com.json',
  needs: "the instance's basePath set to the mock's base; an API key the keys file holds (any server)",
  keys: { key: 'kitkey0123456789abcdef0123456789-us1', wrongKey: 'wrongkey0123456789abcdef01234567-us1' },
  open: async (target) => ({ target }),
  steps: [
    {
      name: 'create an audience',
      run: async (s) => {
        s.name = uniqueName('kit', s.target);
        const list = await use(s.target, s.target.key).createList(audience(s.name));
        check(typeof list.id === 'string' && list.id.length > 0, 'the created audience has no id');
        s.id = list.id;
        same('name', list.name, s.name);
      },
    },
    {
      name: 'read it back',
      run: async (s) => {
        const list = await use(s.target, s.target.key).getList(created(s));
        same('id', list.id, s.id);
        same('name', list.name, s.name);
      },
    },
    {
      name: 'list audiences',
      run: async (s) => {
        const { lists } = await use(s.target, s.target.key).getAllLists({ count: 1000 });
        check(Array.isArray(lists), 'no lists array in the answer');
        const found = lists.find((l) => l.id === created(s));
        check(found, `the list (${lists.length}) does not hold the created audience`);
        same('name in the list', found.name, s.name);
      },
    },
    {
      name: 'rename it',
      run: async (s) => {
        const api = use(s.target, s.target.key);
        const list = await api.updateList(created(s), audience(`${s.name}-2`));
        same('name', list.name, `${s.name}-2`);
        same('name read back', (await api.getList(created(s))).name, `${s.name}-2`);
      },
    },
    {
      name: 'add a member, read it by hash',
      run: async (s) => {
        const api = use(s.target, s.target.key);
        const m = await api.addListMember(created(s), { email_address: email, status: 'subscribed' });
        same('member id', m.id, hash);
        const again = await api.getListMember(created(s), hash);
        same('email_address', again.email_address, email);
      },
    },
    {
      name: 'delete it, then 404',
      run: async (s) => {
        const api = use(s.target, s.target.key);
        await api.deleteList(created(s));
        await fails(() => api.getList(created(s)), 404);
      },
    },
    {
      name: 'missing audience is 404',
      run: (s) => fails(() => use(s.target, s.target.key).getList('kitmissing0'), 404),
    },
    {
      name: 'wrong key is 401',
      requires: 'security',
      run: (s) => fails(() => use(s.target, s.target.wrongKey).getAllLists(), 401),
    },
  ],
};
