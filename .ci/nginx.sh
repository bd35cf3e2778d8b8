# Sourced by .ci/run before the tests (issue 15). Makes sure Debian's nginx is installed; the cluster tests
# and `npm run cluster -- --balancer nginx` run their own nginx (current user, temp prefix, free port,
# `daemon off`), so nothing is started here. Idempotent and instant when nginx is already installed.
if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then
  echo "== installing nginx"
  SUDO=""
  if [ "$(id -u)" != "0" ] && command -v sudo >/dev/null 2>&1; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  # nginx-light: the core and the proxy module, which is all the balancer needs.
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends nginx-light >/dev/null \
    || DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends nginx >/dev/null
  # Debian's package may start a system service on port 80; the tests never use it.
  if command -v service >/dev/null 2>&1; then $SUDO service nginx stop >/dev/null 2>&1 || true; fi
fi
echo "== $( (command -v nginx >/dev/null 2>&1 && nginx -v || /usr/sbin/nginx -v) 2>&1)"
