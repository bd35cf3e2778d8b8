#!/usr/bin/env bash
# Judge an end-to-end suite's traffic against the document: the proxy in front of staging, the suite through it,
# the JUnit and HTML reports kept, the job failed on any server-side violation (docs/judge-traffic.md).
#   STAGING_URL  the real server's base URL (https://staging.example.com/v1)
#   SUITE        the command that runs your suite; it reads API_BASE_URL (the proxy's address)
set -euo pipefail
MOCK=${PETSTORE_MOCK:-npx petstore-mock}
# npx runs the command under `sh -c`, which dies on SIGTERM and passes nothing on: the proxy would still stop by
# itself (it notices its parent gone) and write the reports, but npx would exit 143, not with the gate's code.
# With bash as npm's script shell the command is exec'd: npx forwards the signal to the proxy and exits with its code.
NPX_SHELL=${npm_config_script_shell:-$(command -v bash)}
PORT=${PROXY_PORT:-4010}
mkdir -p reports
npm_config_script_shell="$NPX_SHELL" $MOCK --proxy "$STAGING_URL" --spec "${SPEC:-spec/openapi.yaml}" --port "$PORT" \
  --report junit=reports/contract.xml,html=reports/contract.html,json=reports/contract.json \
  --fail-on-violations ${MIN_COVERAGE:+--min-coverage "$MIN_COVERAGE"} &
PROXY=$!
for _ in $(seq 100); do curl -fs "http://127.0.0.1:$PORT/_mock/violations" >/dev/null && break; sleep 0.1; done
export API_BASE_URL="http://127.0.0.1:$PORT${BASE_PATH:-/v1}"
suite=0
bash -c "$SUITE" || suite=$?
kill -TERM "$PROXY"
proxy=0
wait "$PROXY" || proxy=$?
echo "suite exit $suite, proxy exit $proxy (1 = the server broke the contract, 2 = nothing was judged)"
[ "$suite" -eq 0 ] && [ "$proxy" -eq 0 ]
