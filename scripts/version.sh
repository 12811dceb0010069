#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Prints the project's version: that of the first entry of
# packaging/debian/changelog, which names the packages and which 'make
# install-dkms' puts in /usr/src/hyptrace-VERSION. The code has it from
# shared/hyptrace_version.h (the hypervisor's banner, hyptrace.ko's
# modinfo, 'hyptrace --version'); the two are bumped together, and this
# fails, naming both, while they differ. With --abi, the hypervisor call
# ABI's version instead, MAJOR.MINOR of shared/hyptrace_abi.h.
#   scripts/version.sh [--abi]
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
if [ "${1:-}" = --abi ]; then
	abi=$top/shared/hyptrace_abi.h
	major=$(sed -n 's/^#define HYPTRACE_ABI_MAJOR[[:space:]]*\([0-9][0-9]*\)$/\1/p' "$abi")
	minor=$(sed -n 's/^#define HYPTRACE_ABI_MINOR[[:space:]]*\([0-9][0-9]*\)$/\1/p' "$abi")
	if [ -z "$major" ] || [ -z "$minor" ]; then
		echo "scripts/version.sh: no HYPTRACE_ABI_MAJOR/MINOR in $abi" >&2
		exit 1
	fi
	echo "$major.$minor"
	exit 0
fi
changelog=$top/packaging/debian/changelog
header=$top/shared/hyptrace_version.h
version=$(sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' "$changelog")
coded=$(sed -n 's/^#define HYPTRACE_VERSION[[:space:]]*"\(.*\)"$/\1/p' "$header")
if [ -z "$version" ]; then
	echo "scripts/version.sh: no version in $changelog's first line" >&2
	exit 1
fi
if [ "$coded" != "$version" ]; then
	echo "scripts/version.sh: $changelog says $version, $header says '$coded': bump both" >&2
	exit 1
fi
echo "$version"
