/**
 * Linode (`@linode/api-v4`, the package Linode's Cloud Manager is built on): numeric keys, PUT updates,
 * `{data: […], page, pages, results}` lists, a bearer token. Workflow: a domain created, read back, listed,
 * changed (PUT), deleted (then 404), a missing domain and a wrong token. The SDK is module-wide: one axios
 * instance (`baseRequest`) whose interceptors carry the token and, as Cloud Manager points it at other
 * environments, rewrite the API root.
 */
import {
  baseRequest,
  createDomain,
  deleteDomain,
  getDomain,
  getDomains,
  setToken,
  updateDomain,
} from '@linode/api-v4';
import { check, fails, same, uniqueName, type ClientKit, type Target } from './kit';

interface Session {
  target: Target;
  interceptors: number[];
  id?: number;
  domain?: string;
}

const API_ROOT = /^https:\/\/api\.linode\.com\/v4(beta)?/;

/** Point the SDK at the target with `token`; the interceptors of the previous call are removed first. */
function use(s: Session, token: string): void {
  for (const id of s.interceptors.splice(0)) baseRequest.interceptors.request.eject(id);
  s.interceptors.push(setToken(token));
  s.interceptors.push(
    baseRequest.interceptors.request.use((config) => ({
      ...config,
      url: config.url?.replace(API_ROOT, s.target.base),
    })),
  );
}

const created = (s: Session): number => {
  check(typeof s.id === 'number', `no numeric domain id: the create returned ${String(s.id)}`);
  return s.id;
};

export const linode: ClientKit<Session> = {
  client: '@linode/api-v4 0.158.0',
  document: 'linode.com.json',
  needs:
    "a request interceptor on baseRequest rewriting https://api.linode.com/v4 to the mock's base; setToken(a token the keys file holds)",
  open: async (target) => ({ target, interceptors: [] }),
  close: async (s) => {
    for (const id of s.interceptors.splice(0)) baseRequest.interceptors.request.eject(id);
  },
  steps: [
    {
      name: 'create a domain',
      run: async (s) => {
        use(s, s.target.key);
        s.domain = `${uniqueName('kit', s.target)}.example.com`;
        const d = await createDomain({ domain: s.domain, type: 'master', soa_email: 'admin@example.com' });
        s.id = d.id;
        created(s);
        same('domain', d.domain, s.domain);
        same('soa_email', d.soa_email, 'admin@example.com');
      },
    },
    {
      name: 'read it back',
      run: async (s) => {
        use(s, s.target.key);
        const d = await getDomain(created(s));
        same('id', d.id, s.id);
        same('domain', d.domain, s.domain);
      },
    },
    {
      name: 'list domains',
      run: async (s) => {
        use(s, s.target.key);
        const page = await getDomains({ page_size: 500 });
        const found = page.data.find((d) => d.id === created(s));
        check(found, `the list (${page.data.length} of ${page.results}) does not hold the created domain`);
        same('domain in the list', found.domain, s.domain);
      },
    },
    {
      name: 'change its description',
      run: async (s) => {
        use(s, s.target.key);
        const d = await updateDomain(created(s), { description: 'changed by the kit' });
        same('description', d.description, 'changed by the kit');
        same('description read back', (await getDomain(created(s))).description, 'changed by the kit');
      },
    },
    {
      name: 'delete it, then 404',
      run: async (s) => {
        use(s, s.target.key);
        await deleteDomain(created(s));
        await fails(() => getDomain(created(s)), 404);
      },
    },
    {
      name: 'missing domain is 404',
      run: async (s) => {
        use(s, s.target.key);
        await fails(() => getDomain(987654321), 404);
      },
    },
    {
      name: 'wrong token is 401',
      requires: 'security',
      run: async (s) => {
        use(s, s.target.wrongKey);
        await fails(() => getDomains(), 401);
      },
    },
  ],
};
