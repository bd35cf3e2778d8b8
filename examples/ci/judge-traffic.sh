#!/usr/bin/env bash
# Judge an end-to-end suite's traffic against the document: the proxy in front of staging, the suite through it,
# the JUnit and HTML reports kept, the job failed on any server-side violation (docs/judge-traffic.md).
#   STAGING_URL  the real server's base URL (https://staging.example.com/v1)
#   SUITE        the command that runs your suite; it reads API_BASE_URL (the proxy's address)
set -euo pipefail
MOCK=${PETSTORE_MOCK:-npx petstore-mock}
PORT=${PROXY_PORT:-4010}
mkdir -p reports
$MOCK --proxy "$STAGING_URL" --spec "${SPEC:-spec/openapi.yaml}" --port "$PORT" \
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
echo "suite exit $suite, proxy exit $proxy (1 = the server broke the contract)"
[ "$suite" -eq 0 ] && [ "$proxy" -eq 0 ]
