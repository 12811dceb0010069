#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Build hyptrace's Debian packages with dpkg-buildpackage ('make deb'):
#
#   DEB_OUT=DIR LIBFDT_SRC=DIR [DEB_ARCHS="amd64 arm64"] scripts/make-deb.sh
#
# The source package is this work tree's files (git's tracked ones and the
# new ones it does not ignore) with packaging/debian/ as its debian/ and the
# kernel's libfdt (LIBFDT_SRC) as third_party/libfdt, staged in
# DEB_OUT/work/hyptrace-VERSION. The first build there is a full one, for
# this machine's architecture: the source package, hyptrace for this
# architecture, hyptrace-dkms and hyptrace-hypervisor. Every other
# architecture of DEB_ARCHS (default: this one and arm64) is a binary-only
# cross build of hyptrace (dpkg-buildpackage -a). The .deb, .changes,
# .buildinfo, .dsc and .tar.xz files end up in DEB_OUT, older ones removed;
# the build logs in DEB_OUT/logs. The last lines on stdout are the paths of
# the .changes files, one per architecture.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

: "${DEB_OUT:?DEB_OUT is not set (run make deb)}"
: "${LIBFDT_SRC:?LIBFDT_SRC is not set (run make deb)}"
[ -f "$LIBFDT_SRC/libfdt.h" ] || die "LIBFDT_SRC=$LIBFDT_SRC has no libfdt.h"
command -v dpkg-buildpackage >/dev/null || die "dpkg-buildpackage missing: run make deps"

host_arch=$(dpkg --print-architecture)
archs=${DEB_ARCHS:-}
[ -n "$archs" ] || archs=$(printf '%s\n' "$host_arch" arm64 | sort -u | tr '\n' ' ')
version=$(sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' "$HYPTRACE_TOP/packaging/debian/changelog")
[ -n "$version" ] || die "cannot read the version from packaging/debian/changelog"

mkdir -p "$DEB_OUT/logs"
DEB_OUT=$(cd "$DEB_OUT" && pwd)
work=$DEB_OUT/work
src=$work/hyptrace-$version

# stage: the source tree, as a fresh clone plus what is not committed yet
stage() {
	local f
	rm -rf "$work"
	mkdir -p "$src"
	git -C "$HYPTRACE_TOP" rev-parse --git-dir >/dev/null 2>&1 ||
		die "$HYPTRACE_TOP is not a git work tree: make deb takes the files git knows"
	git -C "$HYPTRACE_TOP" ls-files -z --cached --others --exclude-standard |
		while IFS= read -r -d '' f; do
			# A deleted file is still in the index until committed.
			[ -e "$HYPTRACE_TOP/$f" ] && printf '%s\0' "$f"
		done | tar -C "$HYPTRACE_TOP" --null -T - -cf - | tar -C "$src" -xf -
	rm -rf "$src/debian"
	cp -r "$src/packaging/debian" "$src/debian"
	mkdir -p "$src/third_party/libfdt"
	cp "$LIBFDT_SRC"/*.[ch] "$src/third_party/libfdt/"
}

# build ARCH ARGS...: dpkg-buildpackage in $src, its log in DEB_OUT/logs
build() {
	local arch=$1 log=$DEB_OUT/logs/dpkg-buildpackage-$1.log
	shift
	step "dpkg-buildpackage $* ($arch)"
	# The project's make variables must not reach debian/rules' make.
	run_quiet "dpkg-buildpackage $*" "$log" env -C "$src" -u MAKEFLAGS \
		-u MFLAGS -u MAKELEVEL -u HYPTRACE_BUILD -u HYPTRACE_MODULES_OUT \
		nice dpkg-buildpackage -us -uc -J"$(nproc)" "$@" || die "$quiet_why"
}

main() {
	local arch f
	stage
	note "source tree: $src"
	build "$host_arch"
	# The package has no tests to run (make test runs the project's);
	# CC tells dpkg-architecture that the cross compiler is meant.
	for arch in $archs; do
		[ "$arch" = "$host_arch" ] ||
			DEB_BUILD_OPTIONS="nocheck ${DEB_BUILD_OPTIONS:-}" \
			CC="$(dpkg-architecture -a"$arch" -qDEB_HOST_GNU_TYPE 2>/dev/null)-gcc" \
			build "$arch" -B -a "$arch" -Pcross,nocheck
	done
	rm -f "$DEB_OUT"/*.deb "$DEB_OUT"/*.changes "$DEB_OUT"/*.buildinfo \
		"$DEB_OUT"/*.dsc "$DEB_OUT"/*.tar.*
	for f in "$work"/*.deb "$work"/*.changes "$work"/*.buildinfo \
		"$work"/*.dsc "$work"/*.tar.*; do
		[ ! -e "$f" ] || mv "$f" "$DEB_OUT/"
	done
	for f in "$DEB_OUT"/*.deb; do
		note "$(basename "$f"): $(du -k "$f" | cut -f1) KiB"
	done
	for arch in $archs; do
		f=$DEB_OUT/hyptrace_${version}_$arch.changes
		[ -f "$f" ] || die "no $f after the build"
		echo "$f"
	done
}

main
