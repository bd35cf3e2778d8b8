/** The text of the mock's `--help`: the engine's options first, then the shipped settings' own flags. */
import { commandName } from '../../spec/paths';
import { SHIPPED_SETTINGS } from '../core/settings';

/** The shipped settings' longest bound for a property name (for --help). */
function shippedMax(property: string): number | string {
  const bounds = Object.values(SHIPPED_SETTINGS.bodyBounds ?? {}).map((p) => p[property]?.maxLength ?? 0);
  return Math.max(0, ...bounds) || 'none';
}

/** Usage and every option. */
export const HELP = `Usage: ${commandName('mock')} [options]     (in a clone of the repository: npm start -- [options])

A mock of any OpenAPI document: spec-driven and stateful (records by resource), with the document's security
schemes checked against a keys file and per-plan rate limits. Without --spec it serves the document shipped
in this package (spec/openapi.yaml) with its settings (spec/openapi.settings.json).

  --host HOST                  listen address (default 127.0.0.1)
  --port N, -p N               listen port, 0 for any free port (default 4010; env PORT)
  --spec FILE                  OpenAPI document (default spec/openapi.yaml, the copy in this package)
  --settings FILE | none       the document's settings, JSON or YAML: body bounds by schema and property,
                               allowUnknownFields, readOnlyProperties, unexpectedBody, sunset, successorLink, plans,
                               latency, faults, operations, webhookUrl, webhookSecret, webhookSignature, webhooks,
                               callbackCredentials (default spec/openapi.settings.json;
                               env MOCK_SETTINGS_FILE; none = no bounds, the shipped plans)
  --keys FILE                  keys file (default fixtures/keys.json; env MOCK_KEYS_FILE)
  --seed FILE | --no-seed      seed records by resource (default fixtures/seed.json with the default --spec, none
                               with another; --seed none = empty)
  --seed-har FILE...           seed records from recorded answers (HAR: lists, reads, creates; ids kept), only
                               those the document's response view accepts; the rest listed at start with why
  --quiet, -q                  no request log lines
  --store memory|redis         where records and counters live (default memory)
  --redis-url URL              Redis for --store redis (env REDIS_URL; default redis://127.0.0.1:6379)
  --cors-origins LIST          comma-separated allowed origins, * for any, none for no CORS (default *)
  --max-body-bytes N           larger bodies get 413 (default 1048576)
  --allow-unknown-fields       accept fields a request schema does not name (default: 400)
  --rate-limit on|off          off: nothing is counted, limited or banned, for frontend work; the rate-limit
                               headers still carry the plan's numbers (env MOCK_RATE_LIMIT; default on)
  --ban-threshold N            429s within a minute that ban a key, 0 = never (default 30)
  --ban-seconds N              length of a ban (default 300)
  --sunset DATE                Sunset date of every deprecated operation, over its x-sunset (none by default)
  --successor-link URL         Link rel="successor-version" of every deprecated operation
  --no-admin                   turn off /_mock/state and /_mock/reset (health and ready stay)
  --admin-token TOKEN          16+ characters (env MOCK_ADMIN_TOKEN): state, reset and inspector data need
                               "Authorization: Bearer TOKEN"; without it, on a --host other than loopback the
                               admin routes and the inspector are off
  --no-inspector               turn off the inspector page /_mock/inspector (the API reference stays)
  --watch                      reload spec, keys and seed files when they change (stored state is kept)
  --example-engine spec|prism  who answers operations that are no resource: the document's examples, else
                               values generated from its schemas (default), or Prism 5.12
  --max-records N              most records one resource holds; more is a 409 record_limit (default 10000)
  --no-ratelimit-fields        no IETF RateLimit / RateLimit-Policy fields (X-RateLimit-* stay)
  --base-path PATH             serve under PATH instead of the first server URL's path
  --trust-proxy LIST           comma-separated proxies (IPs, CIDRs, loopback) whose X-Forwarded-For names the
                               client, for per-address limits behind a balancer (default: none)
  --allow-short-keys           accept keys shorter than 16 characters from --keys (the demo keys always are)
  --drain-ms N                 on SIGTERM/SIGINT: stop accepting, let requests in flight finish for up to N ms,
                               then exit 0; a second signal stops at once (default 10000)
  --latency MS[-MS]            hold every answer of the API back MS (or a random MS-MS) milliseconds, at most
                               10000; per operation in the settings file; never the /_mock routes (default none)
  --faults RATE                the share (0-1, or 5%) of API requests answered with one of the operation's
                               documented 5xx or 429, or a reset connection (default 0)
  --random-seed N              seed of the latency and fault draws and of the ids the mock invents: the same
                               seed and requests, the same answers (default 1)
  --callback-hosts LIST        hosts the document's callbacks and webhooks may be sent to: loopback, host names, IP addresses,
                               each optionally with :PORT, comma-separated; no wildcard (default loopback)
  --callback-timeout-ms N      how long one callback (or webhook) attempt waits for its answer; one retry
                               (default 5000)
  --webhooks URL               send the document's webhooks (3.1 top-level webhooks) to URL when the state they
                               describe changes (created, updated, deleted), signed with MOCK_WEBHOOK_SECRET where
                               they document a signature header; the host must be one --callback-hosts allows
                               (default: not sent; POST /_mock/webhooks/NAME sends one on demand)
  --version, -V                the package version
  --help, -h                   this text

${SHIPPED_SETTINGS.title ?? 'The shipped settings'} (spec/openapi.settings.json; these tune the name and description
bounds of whichever settings file is used):
  --allow-empty-name           accept name "" (default: 400)
  --max-name-length N          longest name, 0 = no limit (default ${shippedMax('name')})
  --max-description-length N   longest description, 0 = no limit (default ${shippedMax('description')})
`;
