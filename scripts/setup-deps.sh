#!/bin/sh
# Installs the Debian packages rout needs to build and test, if any are missing.
# Idempotent and quiet when everything is there. Run as root (or via sudo).
set -eu
# chromium: the browser test of the replay page (skipped, with a message, where it is absent)
# clang, libclang-rt-14-dev (libFuzzer and the sanitizer runtimes), libomp-dev (clang's
# OpenMP): make fuzz and make fuzz-ci
# libopenmpi-dev, openmpi-bin: ensembles across machines (mpirun -np N rout run --runs R)
packages="build-essential pkg-config libyaml-dev libjansson-dev librandom123-dev libcairo2-dev fonts-noto-cjk python3 chromium clang libclang-rt-14-dev libomp-dev libopenmpi-dev openmpi-bin"
missing=""
for p in $packages; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0
echo "setup-deps: installing$missing"
if [ "$(id -u)" -ne 0 ]; then
	SUDO=sudo
else
	SUDO=
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
