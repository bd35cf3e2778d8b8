/** The text of `--help`: the engine's options and rules, then each shipped document's own rules. */
import { commandName } from '../spec/paths';
import { CATALOGUE, ENGINE_RULES, RULES } from './rules';
import type { Rule } from './types';

const width = Math.max(...RULES.map((r) => r.id.length));
const line = (r: Rule) =>
  `  ${r.id.padEnd(width)}  ${r.kind.padEnd(10)} ${r.source.padEnd(3)} ${r.title}${r.tags.includes('quota') ? ' [quota]' : ''}`;

/** Each catalogue file under its own heading: its rules, and the operations that make a document get them. */
function catalogueSections(): string {
  return CATALOGUE.map((file) => {
    const ops = [...new Set(file.rules.flatMap((r) => r.operations))].join(', ');
    return `${file.title} (listed only on a document with the operations they name: ${ops}):\n${file.rules.map(line).join('\n')}\n`;
  }).join('\n');
}

/** Usage, every option, exit codes and the rules. */
export function helpText(): string {
  const rules = ENGINE_RULES.map(line);
  return `Usage: ${commandName('conformance')} --target <base URL ending in /v1> [options]
       ${commandName('conformance')} --diff OLD.yaml NEW.yaml [--har FILE...] [--strict] [--report NAME=FILE]
       ${commandName('conformance')} --coverage FILE... [--min-coverage PCT] [--report NAME=FILE]
       (in a clone of the repository: npm run conformance -- --target ... [options])

Checks a server against its OpenAPI document: the rules every document gets, rules generated from the
document, scripted scenarios, and every response checked against the document. Without --spec the
document is the one shipped in this package (spec/openapi.yaml), whose own rules are listed last.

Options:
  --target URL        base URL of the server, ending in /v1 (required)
  --key K             API key for the ordinary checks (or env CONFORMANCE_API_KEY, preferred; never printed);
                      needed only where the document secures an operation
  --quota-key K       a separate key the quota rules may spend (or env CONFORMANCE_QUOTA_KEY)
  --spec FILE         OpenAPI document (default spec/openapi.yaml, the copy in this package); lifecycle, body, auth and rate-limit
                      rules are generated from it (crud.<resource>.<step>, body.<operationId>.<case>)
  --scenarios DIR     scenario folder, YAML or JSON (default conformance/scenarios in this package); "none" runs only the
                      catalogue and the generated rules. To teach the runner what a document does not state,
                      give values in the document (a parameter schema's example, default or enum; a request
                      body's example) or write a scenario; docs/check-a-server.md#a-server-you-did-not-write
  --read-only         send no writes (POST, PUT, PATCH, DELETE); rules that need one are skipped with that
                      reason. Otherwise whatever the run created is deleted at the end where the document
                      has a delete, and the report lists what was left
  --record FILE.har   write every exchange as HAR 1.2 (keys, tokens, passwords and cookies masked)
  --include TAG       run rules with this tag; opt-in tags (quota) are only run when included
  --exclude TAG       skip rules with this tag
  --rule ID           run only this rule (repeatable, or comma-separated)
  --reporter NAME     human (default), json, junit, markdown or html (one self-contained page)
  --output FILE       write the report to FILE instead of stdout
  --report NAME=FILE  also write the report of reporter NAME to FILE (repeatable, e.g. --report
                      junit=reports/junit.xml --report html=reports/report.html); folders are created
  --low-memory        trade CPU for memory: V8's interpreter only and a small young generation (about 1.7x the
                      CPU for a peak RSS near 95-120 MB on a 1,000-operation document); by default V8's compilers
                      and defaults, the heap's growth bounded (about 145-170 MB there)
  --timeout MS        per-request timeout (default 10000)
  --concurrency N     checks run in parallel (default 2)
  --max-wait MS       longest wait for a rate-limit reset or Retry-After (default 30000); a longer
                      wait skips the affected rule as rate-limited instead
  --seed N            seed of the generated request bodies (printed on every run, to replay one)
  --strict            failing assumption rules also fail the run
  --operation ID      cover only this operation (repeatable, or comma-separated operationIds)
  --tag TAG           cover only operations the document tags TAG (repeatable; not --include, which
                      selects rules by their own tags)
  --path GLOB         cover only operations whose path matches, e.g. '/repos/*/issues*' (* within a
                      segment, ** across; repeatable). With several kinds: operations matching all
  --fuzz              also send, per selected operation with a JSON body, the document's examples, the
                      values on both sides of every constraint and random bodies (valid must be accepted,
                      invalid refused); a failure is shrunk, printed as a curl and saved (docs/fuzzing.md)
  --max-examples N    random bodies per operation with --fuzz (default 50)
  --fuzz-time S       the fuzz phase sends nothing after S seconds (default 300)
  --failures-dir DIR  where --fuzz saves failures (default .conformance/failures)
  --max-response-time MS
                      a rule (response.max-time): every answer within MS milliseconds
  --replay            send the saved failures again, each reported fixed or still failing (nothing else)
  --min-coverage PCT  exit 1 when fewer than PCT % of the documented (operation, status) pairs were
                      observed (the report lists them all)
  --require TERMS     rules that must run: tags, rule ids or id globs (e.g. --require auth,quota or
                      --require 'crud.*'; repeatable); a skip of one is exit 2. A term that matches no
                      selected rule is a usage error; an opt-in tag named here (quota) is included
  --callbacks-listen [PORT]
                      receive the callbacks the document documents on 127.0.0.1:PORT (0 or no value: a
                      free port, printed); each operation with callbacks is called once with its callback
                      URL sources (callbackUrl in the body, a query url, a header) naming the receiver, and
                      the callbacks.* rules judge what arrives. Without it they are skipped (no
                      --callbacks-listen: a skip this run's options ask for)
  --callbacks-wait-ms MS
                      how long each documented callback has to arrive (default 3000)
  --judge-har FILE    judge recorded traffic instead of sending any: every entry of a HAR file against the
                      document, with the proxy's rules (docs/judge-traffic.md); with --spec, --report
                      KIND=FILE, --min-coverage and --max-body-bytes N (bodies judged up to N, default 1 MiB)
  --coverage FILE...  coverage files (--report coverage=FILE of a run, the proxy or --judge-har) merged
                      with this run's; without --target the union of the files alone. --min-coverage
                      gates on the union; the HTML report marks the pairs nothing exercised
  --compare URL       send the same generated cases (one seed, same order, same bodies) to a second
                      server too and report where the two differ (status, documented shape, the state a
                      sequence leaves, rate-limit headers), each difference told by which side the
                      document is on; exit 1 on a difference the document does not allow both ways
  --compare-key K     the second server's key (or env CONFORMANCE_COMPARE_KEY; default: --key)
  --diff OLD NEW      no server: the changes between two versions of a document, each breaking or
                      compatible for clients, as a table (--report json/junit/html/markdown too);
                      exit 1 on a breaking change (docs/ship-safely.md)
  --har FILE...       with --diff: recorded traffic replayed against NEW: the requests it would refuse,
                      the answers it would reject, the removed operations in use; exit 1 only when the
                      traffic exercises a breaking change (--strict: any breaking change)
  --version, -V       the package version
  --help              this text

Exit codes (the one table: docs/check-a-server.md#exit-codes):
  0  every required rule held (assumption rules report but do not fail without --strict)
  1  a rule failed (a finding about the server), or coverage under --min-coverage; with --diff,
     a breaking change (with --har: one the recorded traffic exercises)
  2  the run could not judge: bad arguments, spec or scenarios; a filter matching nothing; the target
     unreachable; a key it does not know (401); a key or address rate-limited or banned (a 429 before the
     first rule, or any rule skipped for it); a --require'd rule skipped; more than half of the rules the
     run could check skipped. The last lines list every skip, grouped by reason and counted

Rules of every document (id, kind, source, title; callbacks.* only where an operation documents callbacks):
${rules.join('\n')}

Generated from the document (see docs/check-a-server.md): crud.<resource>.<step> (create, read, listed,
replace, merge-patch or json-patch, delete, delete-then-404, delete-again-404, unknown-id-404, read-only-not-stored, read-only-rejected) and
body.<operationId>.<case> (valid, malformed-json, not-an-object, missing-<p>, type-<p>, min-length-<p>,
max-length-<p>, minimum-<p>, maximum-<p>, enum-<p>, unknown-property).

${catalogueSections()}`;
}
