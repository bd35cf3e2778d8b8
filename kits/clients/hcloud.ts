/**
 * The Hetzner Cloud CLI (`hcloud`, Debian's hcloud-cli): numeric ids, a name looked up through `?name=`,
 * answers in `{ssh_key: …}` / `{ssh_keys: […], meta: {pagination}}` envelopes, PUT updates. Workflow: an SSH
 * key created, described by name, listed, renamed, deleted (then not found), a missing key and a wrong token.
 * Installed by .ci/hcloud.sh; skipped with a reason where it is absent.
 */
import { installed, json, ok, refused, runCli } from './cli';
import { check, same, uniqueName, type ClientKit, type Target } from './kit';

const BIN = '/usr/bin/hcloud';
const PUBLIC_KEY =
  'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIKitKitKitKitKitKitKitKitKitKitKitKitKitKitKit kit@example';

interface SshKey {
  id?: number;
  name?: string;
}

interface Session {
  target: Target;
  id?: string;
  name?: string;
}

/** `hcloud ARGS` against the target with `token` (HCLOUD_ENDPOINT is the CLI's own base URL setting). */
const hcloud = (t: Target, token: string, ...args: string[]) =>
  runCli(BIN, args, { HCLOUD_ENDPOINT: t.base, HCLOUD_TOKEN: token, HCLOUD_CONFIG: '/nonexistent/kit.toml' });

const created = (s: Session): string => {
  check(s.id, 'no key id: the create did not print one');
  return s.id;
};

const token = (c: string) => c.repeat(64).slice(0, 64);

export const hcloudKit: ClientKit<Session> = {
  client: 'hcloud-cli 1.30.3 (Debian)',
  document: 'hetzner.cloud.json',
  needs: "HCLOUD_ENDPOINT=the mock's base, HCLOUD_TOKEN=a 64-character token the keys file holds",
  keys: { key: token('k1t'), wrongKey: token('wr0ng') },
  unavailable: () => (installed(BIN) ? null : `${BIN} is not installed (.ci/hcloud.sh installs it)`),
  open: async (target) => ({ target }),
  steps: [
    {
      name: 'create an SSH key',
      run: async (s) => {
        s.name = uniqueName('kit', s.target);
        const out = ok(
          await hcloud(
            s.target,
            s.target.key,
            'ssh-key',
            'create',
            '--name',
            s.name,
            '--public-key',
            PUBLIC_KEY,
          ),
        );
        const id = /SSH key (\d+) created/.exec(out)?.[1];
        check(id, `no id in what it printed: ${out.trim()}`);
        s.id = id;
      },
    },
    {
      name: 'describe it by name',
      run: async (s) => {
        const key = json<SshKey>(
          ok(await hcloud(s.target, s.target.key, 'ssh-key', 'describe', s.name ?? '', '-o', 'json')),
        );
        same('id', String(key.id), created(s));
        same('name', key.name, s.name);
      },
    },
    {
      name: 'list SSH keys',
      run: async (s) => {
        const keys = json<SshKey[]>(
          ok(await hcloud(s.target, s.target.key, 'ssh-key', 'list', '-o', 'json')),
        );
        const found = keys.find((k) => String(k.id) === created(s));
        check(found, `the list (${keys.length} keys) does not hold the created one`);
        same('name in the list', found.name, s.name);
      },
    },
    {
      name: 'rename it',
      run: async (s) => {
        ok(await hcloud(s.target, s.target.key, 'ssh-key', 'update', created(s), '--name', `${s.name}-2`));
        const key = json<SshKey>(
          ok(await hcloud(s.target, s.target.key, 'ssh-key', 'describe', created(s), '-o', 'json')),
        );
        same('name read back', key.name, `${s.name}-2`);
      },
    },
    {
      name: 'delete it, then not found',
      run: async (s) => {
        ok(await hcloud(s.target, s.target.key, 'ssh-key', 'delete', created(s)));
        refused(
          await hcloud(s.target, s.target.key, 'ssh-key', 'describe', created(s)),
          /not found/i,
          'not found',
        );
      },
    },
    {
      name: 'missing key is not found',
      run: async (s) =>
        refused(
          await hcloud(s.target, s.target.key, 'ssh-key', 'describe', '987654321'),
          /not found/i,
          'not found',
        ),
    },
    {
      name: 'wrong token is refused',
      requires: 'security',
      run: async (s) =>
        refused(
          await hcloud(s.target, s.target.wrongKey, 'ssh-key', 'list'),
          /unauthori[sz]ed|401/i,
          'unauthorized',
        ),
    },
  ],
};
