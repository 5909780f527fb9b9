#!/bin/sh
# Install the Debian packages vtasim needs to build and test. Idempotent: packages already
# present are left alone and nothing is downloaded when all are installed.
set -eu

PACKAGES="build-essential cmake pkg-config libsystemc-dev verilator libyaml-dev libcmocka-dev libjansson-dev libedit-dev gnuplot-nox libxml2-utils valgrind"
# `setup-debian.sh fuzz`: also clang and its libFuzzer runtime, for the fuzz targets
# (a recommended package only, so named here)
if [ "${1:-}" = fuzz ]; then
	PACKAGES="$PACKAGES clang libclang-rt-14-dev"
fi

missing=""
for pkg in $PACKAGES; do
	if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
		missing="$missing $pkg"
	fi
done

if [ -z "$missing" ]; then
	exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
	echo "vtasim setup: these Debian packages are missing:$missing" >&2
	echo "vtasim setup: run as root (or: sudo apt-get install$missing) and try again." >&2
	exit 1
fi

echo "vtasim setup: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing
