# Sourced by .ci/run before the tests: make sure the Debian chromium package is there for the browser tests
# (playwright-core drives /usr/bin/chromium; no browser is ever downloaded). Idempotent and quiet; never exits
# the calling shell.
if [ ! -x /usr/bin/chromium ]; then
  echo "browser.sh: installing chromium (Debian package) for the end-to-end tests"
  _sudo=""
  if [ "$(id -u)" != "0" ] && command -v sudo >/dev/null 2>&1; then _sudo="sudo"; fi
  $_sudo apt-get update -qq >/dev/null \
    && DEBIAN_FRONTEND=noninteractive $_sudo apt-get install -y -qq --no-install-recommends chromium >/dev/null \
    || echo "browser.sh: could not install chromium; the browser tests will fail under CI=true" >&2
  unset _sudo
fi
if [ -x /usr/bin/chromium ]; then echo "browser.sh: $(/usr/bin/chromium --version 2>/dev/null)"; fi
