/**
 * Mux Video (`@mux/mux-node`, Stainless-generated): JSON bodies, HTTP Basic (token id and secret), answers in a
 * `{data: …}` envelope the SDK unwraps. Workflow: an asset created, read back, listed, its passthrough changed
 * and read back, deleted (then 404), a missing asset and a wrong key.
 */
import Mux from '@mux/mux-node';
import { check, fails, same, uniqueName, type ClientKit, type Target } from './kit';

interface Session {
  mux: Mux;
  wrong: Mux;
  target: Target;
  id?: string;
  passthrough?: string;
}

const client = (t: Target, tokenId: string) =>
  new Mux({ tokenId, tokenSecret: 'kit-secret', baseURL: t.base, maxRetries: 0 });

const created = (s: Session): string => {
  check(s.id, 'no asset id: the create did not return one');
  return s.id;
};

export const mux: ClientKit<Session> = {
  client: '@mux/mux-node 15.3.0',
  document: 'mux.com.json',
  needs: "baseURL (the mock's base); the key as the token id (any secret)",
  open: async (target) => ({
    mux: client(target, target.key),
    wrong: client(target, target.wrongKey),
    target,
  }),
  steps: [
    {
      name: 'create an asset',
      run: async (s) => {
        s.passthrough = uniqueName('kit', s.target);
        const a = await s.mux.video.assets.create({
          inputs: [{ url: 'https://example.com/clip.mp4' }],
          playback_policies: ['public'],
          passthrough: s.passthrough,
        });
        check(typeof a.id === 'string' && a.id.length > 0, 'the created asset has no id');
        s.id = a.id;
        same('passthrough', a.passthrough, s.passthrough);
      },
    },
    {
      name: 'read it back',
      run: async (s) => {
        const a = await s.mux.video.assets.retrieve(created(s));
        same('id', a.id, s.id);
        same('passthrough', a.passthrough, s.passthrough);
      },
    },
    {
      name: 'list assets',
      run: async (s) => {
        const found: { id: string; passthrough?: string }[] = [];
        for await (const a of s.mux.video.assets.list({ limit: 25 })) if (a.id === created(s)) found.push(a);
        check(found[0], 'the list does not hold the created asset');
        same('passthrough in the list', found[0].passthrough, s.passthrough);
      },
    },
    {
      name: 'change its passthrough',
      run: async (s) => {
        const a = await s.mux.video.assets.update(created(s), { passthrough: `${s.passthrough}-changed` });
        same('passthrough', a.passthrough, `${s.passthrough}-changed`);
        const again = await s.mux.video.assets.retrieve(created(s));
        same('passthrough read back', again.passthrough, `${s.passthrough}-changed`);
      },
    },
    {
      name: 'delete it, then 404',
      run: async (s) => {
        await s.mux.video.assets.delete(created(s));
        await fails(
          () => s.mux.video.assets.retrieve(created(s)),
          404,
          (e) => e instanceof Mux.NotFoundError,
        );
      },
    },
    {
      name: 'missing asset is 404',
      run: (s) =>
        fails(
          () => s.mux.video.assets.retrieve('kitMissingAsset00000000000000000'),
          404,
          (e) => e instanceof Mux.NotFoundError,
        ),
    },
    {
      name: 'wrong key is 401',
      requires: 'security',
      run: (s) =>
        fails(
          () => s.wrong.video.assets.list(),
          401,
          (e) => e instanceof Mux.AuthenticationError,
        ),
    },
  ],
};
