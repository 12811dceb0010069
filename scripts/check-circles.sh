#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# No file of the hyptrace tool calls back into a file that calls it:
# scripts/check-circles.py over the objects of the native build of
# tools/hyptrace (built here if need be), failing on any circle. Then, for
# information only (printed, never failing: they are being restructured),
# the same over the hypervisor's and the module's objects where a build
# left them.
#
#   scripts/check-circles.sh [BUILD]	BUILD: the build directory, by
#					default $HYPTRACE_BUILD or ./build
set -eu

TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-${HYPTRACE_BUILD:-$TOP/build}}
TOOL_BUILD=$BUILD/tools/native
CIRCLES="python3 $TOP/scripts/check-circles.py"

make -s --no-print-directory -C "$TOP/tools/hyptrace" BUILD="$TOOL_BUILD" \
	check-circles

NM=nm
command -v aarch64-linux-gnu-nm >/dev/null 2>&1 && NM=aarch64-linux-gnu-nm
for what in "hyp:$BUILD/hyp" "host-driver:$BUILD/modules/host-driver" \
	    "host-driver:$TOP/host-driver"; do
	name=${what%%:*}
	dir=${what#*:}
	if ls "$dir"/*.o >/dev/null 2>&1 || ls "$dir"/*/*.o >/dev/null 2>&1; then
		$CIRCLES --info --nm "$NM" --name "$name" --strip "$dir/" "$dir"
	fi
done
