#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# No file calls back into a file that calls it: scripts/check-circles.py
# over the objects of builds made here from the tree's sources, each over
# exactly the objects it links, so that the answer depends only on the
# sources (never on objects an older build left). The parts:
#
#   hyp			the hypervisor (hyp/Makefile's check-circles), built
#			in BUILD/check-circles/hyp
#   host-driver		hyptrace.ko with trace_remote, and
#   host-driver-fallback	without it (the debugfs front end), both by
#			scripts/build-host-driver.sh (as 59-hostile-page
#			builds its fallback module) in
#			BUILD/check-circles/host-driver{,-fallback}
#   tools		tools/hyptrace (its Makefile's check-circles), in
#			BUILD/tools/native where make tools builds it
#
# The build directories are kept from one run to the next: a second run
# compiles only what changed. A circle in any part fails the check.
#
#   scripts/check-circles.sh [BUILD [PART...]]
#			BUILD: the build directory, by default
#			$HYPTRACE_BUILD or ./build, which has the guest
#			kernel (make kernel); PART: only these parts
set -eu

TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "${1:-${HYPTRACE_BUILD:-$TOP/build}}" && pwd)
[ $# -gt 0 ] && shift
PARTS=${*:-hyp host-driver host-driver-fallback tools}
OUT=$BUILD/check-circles
CROSS_COMPILE=${CROSS_COMPILE:-aarch64-linux-gnu-}
status=0

# hyp: libfdt comes from the guest kernel's source tree, as make hyp has it
check_hyp() {
	[ -f "$BUILD/kernel-src.env" ] ||
		{ echo "check-circles: no $BUILD/kernel-src.env: run make hyp"; return 1; }
	KERNEL_SRC=$(sed -n 's/^KERNEL_SRC=//p' "$BUILD/kernel-src.env")
	make -s --no-print-directory -C "$TOP/hyp" BUILD="$OUT/hyp" \
		CROSS_COMPILE="$CROSS_COMPILE" \
		LIBFDT_DIR="$KERNEL_SRC/scripts/dtc/libfdt" check-circles
}

# check_module PART [--fallback]: hyptrace.ko's objects, as kbuild lists
# them in hyptrace.mod (./NAME.o, one a line or all on one)
check_module() {
	part=$1
	shift
	HYPTRACE_BUILD=$BUILD bash "$TOP/scripts/build-host-driver.sh" "$@" \
		"$OUT/$part" >/dev/null || return 1
	dir=$OUT/$part/host-driver
	# shellcheck disable=SC2046 # one object a word
	python3 "$TOP/scripts/check-circles.py" --nm "${CROSS_COMPILE}nm" \
		--name "$part" --strip "$dir/" \
		$(tr -s ' ' '\n' <"$dir/hyptrace.mod" | sed "s|^\./|$dir/|")
}

mkdir -p "$OUT"
for part in $PARTS; do
	case $part in
	hyp) check_hyp || status=1 ;;
	host-driver) check_module host-driver || status=1 ;;
	host-driver-fallback)
		check_module host-driver-fallback --fallback || status=1 ;;
	tools)
		make -s --no-print-directory -C "$TOP/tools/hyptrace" \
			BUILD="$BUILD/tools/native" check-circles || status=1 ;;
	*) echo "check-circles: no part $part (hyp host-driver host-driver-fallback tools)"
	   exit 2 ;;
	esac
done
exit $status
