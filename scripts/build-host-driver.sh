#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Build hyptrace.ko from this tree's host-driver/ against the guest kernel
# (the one make kernel builds: $HYPTRACE_BUILD/kernel.env), in a directory
# of its own, with either front end:
#
#   scripts/build-host-driver.sh [--fallback] OUT
#
#   --fallback   as for a kernel without trace_remote: the debugfs front end
#                (CONFIG_TRACE_REMOTE= on kbuild's command line, which Kbuild
#                and compat.h follow); by default the one the guest kernel's
#                config picks, trace_remote
#   OUT          the build directory: OUT/host-driver and OUT/shared are
#                copies of the tree's, kept from one run to the next so that
#                kbuild rebuilds only what changed
#
# The copy follows the tree by content, not by time: a source that differs
# is written again (so it is newer than its object), one the tree no longer
# has is removed, and the tree's own build products are never copied; so
# what is built depends only on the tree's sources. Prints the path of the
# .ko; the objects linked into it are listed in OUT/host-driver/hyptrace.mod
# (scripts/check-circles.sh reads them); the compiler's output goes to
# OUT/build.log, its last line to stderr if the build fails.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

usage() {
	sed -n '4,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"
}

# sync_sources FROM TO: TO's sources (C, headers, Kbuild, Makefile) made
# those of FROM, by content
sync_sources() {
	local f name
	mkdir -p "$2"
	for f in "$2"/*; do
		name=${f##*/}
		case $name in
		*.mod.c) ;;		# kbuild's, made in TO
		*.[chS] | Kbuild | Makefile)
			[ -e "$1/$name" ] || rm -f "$f" ;;
		esac
	done
	for f in "$1"/*; do
		name=${f##*/}
		case $name in
		*.mod.c) ;;		# from an in-tree build of FROM
		*.[chS] | Kbuild | Makefile)
			cmp -s "$f" "$2/$name" || cp "$f" "$2/$name" ;;
		esac
	done
}

main() {
	local out='' kbuild_args=()

	while [ $# -gt 0 ]; do
		case $1 in
		--fallback) kbuild_args+=(CONFIG_TRACE_REMOTE=) ;;
		-h | --help) usage; exit 0 ;;
		-*) die "unknown option $1 (see --help)" ;;
		*) [ -z "$out" ] || die "one OUT only (see --help)"; out=$1 ;;
		esac
		shift
	done
	[ -n "$out" ] || die "no OUT given (see --help)"
	mkdir -p "$out" && out=$(cd "$out" && pwd)	# kbuild's M= is absolute
	[ -f "$HYPTRACE_BUILD/kernel.env" ] ||
		die "no guest kernel in $HYPTRACE_BUILD (kernel.env): run make kernel"
	# shellcheck source=/dev/null
	. "$HYPTRACE_BUILD/kernel.env"

	sync_sources "$HYPTRACE_TOP/host-driver" "$out/host-driver"
	sync_sources "$HYPTRACE_TOP/shared" "$out/shared"
	if ! make -s -j"$(nproc)" -C "$KERNEL_SRC" O="$KERNEL_BUILD" \
		M="$out/host-driver" ARCH=arm64 \
		CROSS_COMPILE="${CROSS_COMPILE:-aarch64-linux-gnu-}" \
		"${kbuild_args[@]}" modules >"$out/build.log" 2>&1; then
		die "building hyptrace.ko in $out: $(tail -n 1 "$out/build.log")"
	fi
	echo "$out/host-driver/hyptrace.ko"
}

main "$@"
