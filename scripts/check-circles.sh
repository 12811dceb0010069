#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# No file calls back into a file that calls it. scripts/check-circles.py
# over the objects of a build: first the hypervisor's and the module's,
# where a build left them, each failing on a circle or, while it is being
# restructured, printing them for information only (STRICT below says
# which); last, failing on any circle, the objects the native build of
# tools/hyptrace links (its Makefile's check-circles target, which builds
# them if need be).
#
#   scripts/check-circles.sh [BUILD]	BUILD: the build directory, by
#					default $HYPTRACE_BUILD or ./build
set -eu

TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-${HYPTRACE_BUILD:-$TOP/build}}

# The trees a circle fails; the others' circles are printed only
STRICT=" hyp "

NM=nm
command -v aarch64-linux-gnu-nm >/dev/null 2>&1 && NM=aarch64-linux-gnu-nm
status=0
for what in "hyp:$BUILD/hyp" "host-driver:$BUILD/modules/host-driver" \
	    "host-driver:$TOP/host-driver"; do
	name=${what%%:*}
	dir=${what#*:}
	info=--info
	case $STRICT in *" $name "*) info= ;; esac
	if ls "$dir"/*.o >/dev/null 2>&1 || ls "$dir"/*/*.o >/dev/null 2>&1; then
		python3 "$TOP/scripts/check-circles.py" $info --nm "$NM" \
			--name "$name" --strip "$dir/" "$dir" || status=1
	fi
done

make -s --no-print-directory -C "$TOP/tools/hyptrace" \
	BUILD="$BUILD/tools/native" check-circles || status=1
exit $status
