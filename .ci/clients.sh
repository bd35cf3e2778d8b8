# Sourced by .ci/run before the tests (issue 38): the CLIs of the real-clients kit (kits/clients/), from Debian's
# packages: the Docker CLI (docker.io; the kit runs /usr/bin/docker against the mock, never a daemon) and the
# Hetzner Cloud CLI (hcloud-cli). The kit skips a client whose binary is absent, with the reason.
# Idempotent and instant when both are installed.
if [ ! -x /usr/bin/docker ] || [ ! -x /usr/bin/hcloud ]; then
  echo "== installing docker.io and hcloud-cli"
  SUDO=""
  if [ "$(id -u)" != "0" ] && command -v sudo >/dev/null 2>&1; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends docker.io hcloud-cli >/dev/null
  # Debian's package may start the Docker daemon as a service; the kit never uses it.
  if command -v service >/dev/null 2>&1; then $SUDO service docker stop >/dev/null 2>&1 || true; fi
fi
echo "== $(/usr/bin/docker --version 2>/dev/null || echo 'docker: not installed'); hcloud-cli $(dpkg-query -W -f '${Version}' hcloud-cli 2>/dev/null || echo 'not installed')"
