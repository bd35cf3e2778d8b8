# Sourced by .ci/run before the tests (issue 6). Makes sure a redis-server binary is on PATH; the tests
# start their own servers (127.0.0.1, free port, temp dir) and stop them, so nothing is started here.
# Idempotent and instant when Redis is already installed.
if ! command -v redis-server >/dev/null 2>&1; then
  echo "== installing redis-server"
  SUDO=""
  if [ "$(id -u)" != "0" ] && command -v sudo >/dev/null 2>&1; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends redis-server >/dev/null
  # Debian's package may start a system service on 6379; the tests never use it.
  if command -v service >/dev/null 2>&1; then $SUDO service redis-server stop >/dev/null 2>&1 || true; fi
fi
echo "== $(redis-server --version | cut -d' ' -f1-3)"
