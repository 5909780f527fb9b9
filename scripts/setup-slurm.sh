#!/bin/sh
# Install what the Slurm test of `vtasim sweep` needs (tests/sweep/slurm.sh): a single-node
# Slurm (controller, node daemon, client) and munge, which the test starts itself on
# localhost with its own generated slurm.conf. Idempotent, like setup-debian.sh; nothing is
# started or enabled here.
set -eu

PACKAGES="slurmctld slurmd slurm-client munge"

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
