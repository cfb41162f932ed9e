#!/bin/sh
# ensure-packages.sh PACKAGE... — installs the Debian packages of the list that are not installed
# yet, with apt (through sudo when not root); does nothing, and asks apt nothing, when all are.
# The one way the Makefile and the test scripts get the tools they use.
set -eu
missing=
for package in "$@"; do
    dpkg-query -W -f='${Status}\n' "$package" 2>/dev/null | grep -q '^install ok installed' || missing="$missing $package"
done
[ -z "$missing" ] && exit 0
echo "installing:$missing" >&2
sudo=
[ "$(id -u)" = 0 ] || sudo=sudo
# Another apt (a parallel suite, unattended-upgrades) may hold the lock: wait for it rather than fail.
$sudo apt-get -o DPkg::Lock::Timeout=900 update -qq >&2
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $sudo apt-get -o DPkg::Lock::Timeout=900 install -y -qq --no-install-recommends $missing >&2
