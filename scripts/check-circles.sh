#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# No file calls back into a file that calls it. scripts/check-circles.py
# over the objects of a build: first, for information only (printed,
# never failing: they are being restructured), the hypervisor's and the
# module's where a build left them; last, failing on any circle, the
# objects the native build of tools/hyptrace links (its Makefile's
# check-circles target, which builds them if need be).
#
#   scripts/check-circles.sh [BUILD]	BUILD: the build directory, by
#					default $HYPTRACE_BUILD or ./build
set -eu

TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-${HYPTRACE_BUILD:-$TOP/build}}

NM=nm
command -v aarch64-linux-gnu-nm >/dev/null 2>&1 && NM=aarch64-linux-gnu-nm
for what in "hyp:$BUILD/hyp" "host-driver:$BUILD/modules/host-driver" \
	    "host-driver:$TOP/host-driver"; do
	name=${what%%:*}
	dir=${what#*:}
	if ls "$dir"/*.o >/dev/null 2>&1 || ls "$dir"/*/*.o >/dev/null 2>&1; then
		python3 "$TOP/scripts/check-circles.py" --info --nm "$NM" \
			--name "$name" --strip "$dir/" "$dir"
	fi
done

make -s --no-print-directory -C "$TOP/tools/hyptrace" \
	BUILD="$BUILD/tools/native" check-circles
