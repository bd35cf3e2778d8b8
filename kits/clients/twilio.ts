/**
 * Twilio (`twilio`): form bodies (`application/x-www-form-urlencoded`, PascalCase fields), HTTP Basic with the
 * account SID and auth token, `POST` on an item path as its update, `{services: […], meta}` lists, `SID` keys.
 * Workflow on Messaging v1: a service created, fetched, listed, renamed (POST on the item), removed (then 404),
 * a missing service and a wrong account.
 */
import twilioSdk from 'twilio';
import { check, fails, same, uniqueName, type ClientKit, type Target } from './kit';

type Twilio = ReturnType<typeof twilioSdk>;

interface Session {
  tw: Twilio;
  wrong: Twilio;
  target: Target;
  sid?: string;
  name?: string;
}

/** A client whose messaging domain is the target (`baseUrl` is the SDK's per-domain base URL). */
function client(t: Target, accountSid: string): Twilio {
  const tw = twilioSdk(accountSid, 'kit-auth-token');
  tw.messaging.baseUrl = t.base;
  return tw;
}

const created = (s: Session): string => {
  check(s.sid, 'no service sid: the create did not return one');
  return s.sid;
};

const isRest = (e: unknown) =>
  (e as { constructor?: { name?: string } }).constructor?.name === 'RestException';

export const twilio: ClientKit<Session> = {
  client: 'twilio 6.3.1',
  document: 'twilio.com/twilio_messaging_v1.json',
  needs:
    "client.messaging.baseUrl = the mock's base; an account SID (AC…) the keys file holds, any auth token",
  keys: { key: 'AC0123456789abcdef0123456789abcdef', wrongKey: 'ACfedcba9876543210fedcba9876543210' },
  open: async (target) => ({
    tw: client(target, target.key),
    wrong: client(target, target.wrongKey),
    target,
  }),
  steps: [
    {
      name: 'create a messaging service',
      run: async (s) => {
        s.name = uniqueName('kit', s.target);
        const svc = await s.tw.messaging.v1.services.create({ friendlyName: s.name });
        check(typeof svc.sid === 'string' && svc.sid.length > 0, 'the created service has no sid');
        s.sid = svc.sid;
        same('friendlyName', svc.friendlyName, s.name);
      },
    },
    {
      name: 'fetch it',
      run: async (s) => {
        const svc = await s.tw.messaging.v1.services(created(s)).fetch();
        same('sid', svc.sid, s.sid);
        same('friendlyName', svc.friendlyName, s.name);
      },
    },
    {
      name: 'list services',
      run: async (s) => {
        const all = await s.tw.messaging.v1.services.list({ limit: 200 });
        const found = all.find((x) => x.sid === created(s));
        check(found, `the list (${all.length}) does not hold the created service`);
        same('friendlyName in the list', found.friendlyName, s.name);
      },
    },
    {
      name: 'rename it (POST on the item)',
      run: async (s) => {
        const svc = await s.tw.messaging.v1.services(created(s)).update({ friendlyName: `${s.name}-2` });
        same('friendlyName', svc.friendlyName, `${s.name}-2`);
        const again = await s.tw.messaging.v1.services(created(s)).fetch();
        same('friendlyName read back', again.friendlyName, `${s.name}-2`);
      },
    },
    {
      name: 'remove it, then 404',
      run: async (s) => {
        same('removed', await s.tw.messaging.v1.services(created(s)).remove(), true);
        await fails(() => s.tw.messaging.v1.services(created(s)).fetch(), 404, isRest);
      },
    },
    {
      name: 'missing service is 404',
      run: (s) =>
        fails(() => s.tw.messaging.v1.services('MG00000000000000000000000000000000').fetch(), 404, isRest),
    },
    {
      name: 'wrong account is 401',
      requires: 'security',
      run: (s) => fails(() => s.wrong.messaging.v1.services.list({ limit: 1 }), 401, isRest),
    },
  ],
};
