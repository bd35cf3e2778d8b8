/**
 * Asana (`asana` v3, openapi-generator): every body in a `{data: …}` envelope both ways, string `gid` keys,
 * projects under a workspace (the nested collection). Workflow: a project created in a workspace, read back,
 * listed under that workspace, renamed (PUT), deleted (then 404), a missing project and a wrong token. The SDK
 * is configured through one module-wide ApiClient.
 */
import * as Asana from 'asana';
import { check, fails, same, uniqueName, type ClientKit, type Target } from './kit';

interface Project {
  gid?: string;
  name?: string;
}

interface Session {
  target: Target;
  id?: string;
  name?: string;
}

const WORKSPACE = '1204000000000001';

/** The projects API with the module's one ApiClient pointed at the target with `token`. */
function use(t: Target, token: string): Asana.ProjectsApi {
  const client = Asana.ApiClient.instance;
  client.basePath = t.base;
  const auth = client.authentications as Record<string, { accessToken?: string } | undefined>;
  const slot = auth.token;
  if (slot) slot.accessToken = token;
  return new Asana.ProjectsApi();
}

/** What a call answered, out of its `{data: …}` envelope. */
const data = (answer: unknown): Project => ((answer as { data?: Project } | null)?.data ?? {}) as Project;

const created = (s: Session): string => {
  check(s.id, 'no project gid: the create did not return one');
  return s.id;
};

export const asana: ClientKit<Session> = {
  client: 'asana 3.2.0',
  document: 'asana.com.json',
  needs: "ApiClient.instance.basePath set to the mock's base; a personal access token the keys file holds",
  open: async (target) => ({ target }),
  steps: [
    {
      name: 'create a project in a workspace',
      run: async (s) => {
        s.name = uniqueName('kit', s.target);
        const p = data(
          await use(s.target, s.target.key).createProjectForWorkspace({ data: { name: s.name } }, WORKSPACE),
        );
        check(typeof p.gid === 'string' && p.gid.length > 0, 'the created project has no gid');
        s.id = p.gid;
        same('name', p.name, s.name);
      },
    },
    {
      name: 'read it back',
      run: async (s) => {
        const p = data(await use(s.target, s.target.key).getProject(created(s)));
        same('gid', p.gid, s.id);
        same('name', p.name, s.name);
      },
    },
    {
      name: "list the workspace's projects",
      run: async (s) => {
        const page = (await use(s.target, s.target.key).getProjectsForWorkspace(WORKSPACE, {
          limit: 100,
        })) as {
          data?: Project[];
        };
        check(Array.isArray(page.data), 'no data array in the answer');
        const found = page.data.find((p) => p.gid === created(s));
        check(found, `the workspace's ${page.data.length} projects do not hold the created one`);
        same('name in the list', found.name, s.name);
      },
    },
    {
      name: 'rename it',
      run: async (s) => {
        const api = use(s.target, s.target.key);
        const p = data(await api.updateProject({ data: { name: `${s.name}-2` } }, created(s)));
        same('name', p.name, `${s.name}-2`);
        same('name read back', data(await api.getProject(created(s))).name, `${s.name}-2`);
      },
    },
    {
      name: 'delete it, then 404',
      run: async (s) => {
        const api = use(s.target, s.target.key);
        await api.deleteProject(created(s));
        await fails(() => api.getProject(created(s)), 404);
      },
    },
    {
      name: 'missing project is 404',
      run: (s) => fails(() => use(s.target, s.target.key).getProject('1204999999999999'), 404),
    },
    {
      name: 'wrong token is 401',
      requires: 'security',
      run: (s) => fails(() => use(s.target, s.target.wrongKey).getProject('1204999999999999'), 401),
    },
  ],
};
