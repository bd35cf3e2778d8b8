/**
 * The Docker CLI (`docker`, Debian's docker.io) against the Docker Engine document (1.33): named keys
 * (`/volumes/{name}`), a create at `/volumes/create`, a list in a `{Volumes: […]}` envelope, no auth. Workflow:
 * the server's version (a believable one), a volume created, inspected, listed, removed (then no such volume),
 * and a missing volume. Installed by .ci/docker-cli.sh; skipped with a reason where it is absent.
 */
import { installed, json, ok, refused, runCli } from './cli';
import { check, same, uniqueName, type ClientKit, type Target } from './kit';

/** Debian's client: /usr/local/bin may hold another build that the CI machine does not have. */
const BIN = '/usr/bin/docker';

interface Volume {
  Name?: string;
  Labels?: Record<string, string> | null;
}

interface Session {
  target: Target;
  name?: string;
}

/**
 * `docker ARGS` against the target: DOCKER_HOST is the CLI's own way to name a daemon; DOCKER_API_VERSION pins the
 * document's version (1.33) in the paths, as the CLI does against an older daemon that announces none.
 */
const docker = (t: Target, ...args: string[]) =>
  runCli(BIN, args, { DOCKER_HOST: t.origin.replace(/^http/, 'tcp'), DOCKER_API_VERSION: '1.33' });

const created = (s: Session): string => {
  check(s.name, 'no volume name: the create did not print one');
  return s.name;
};

export const dockerKit: ClientKit<Session> = {
  client: 'docker.io 20.10.24 (Debian)',
  document: 'docker.com/engine.json',
  needs: "DOCKER_HOST=tcp://the mock's host:port, DOCKER_API_VERSION=1.33 (the document's version); no key",
  unavailable: () => (installed(BIN) ? null : `${BIN} is not installed (.ci/docker-cli.sh installs it)`),
  open: async (target) => ({ target }),
  steps: [
    {
      name: "the server's version",
      run: async (s) => {
        const v = ok(await docker(s.target, 'version', '--format', '{{.Server.Version}}')).trim();
        check(/^\d+\.\d+(\.\d+)?/.test(v), `the server's version is ${JSON.stringify(v)}`);
      },
    },
    {
      name: 'create a volume',
      run: async (s) => {
        const name = uniqueName('kit', s.target);
        s.name = name;
        const out = ok(await docker(s.target, 'volume', 'create', '--label', 'kit=1', name)).trim();
        same('printed name', out, name);
      },
    },
    {
      name: 'inspect it',
      run: async (s) => {
        const [v] = json<Volume[]>(ok(await docker(s.target, 'volume', 'inspect', created(s))));
        same('Name', v?.Name, s.name);
        same('Labels', v?.Labels, { kit: '1' });
      },
    },
    {
      name: 'list volumes',
      run: async (s) => {
        const names = ok(await docker(s.target, 'volume', 'ls', '-q'))
          .split('\n')
          .map((l) => l.trim());
        check(
          names.includes(created(s)),
          `the list (${names.filter(Boolean).length}) does not hold the volume`,
        );
      },
    },
    {
      name: 'remove it, then no such volume',
      run: async (s) => {
        same('printed name', ok(await docker(s.target, 'volume', 'rm', created(s))).trim(), s.name);
        refused(await docker(s.target, 'volume', 'inspect', created(s)), /no such volume/i, 'no such volume');
      },
    },
    {
      name: 'missing volume: no such volume',
      run: async (s) =>
        refused(
          await docker(s.target, 'volume', 'inspect', 'kit-missing'),
          /no such volume/i,
          'no such volume',
        ),
    },
  ],
};
