#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Fetch a stock Debian arm64 kernel to boot with ./qemu-run.sh --kernel:
#
#   scripts/fetch-stock-kernel.sh SUITE
#   scripts/fetch-stock-kernel.sh --dtb FILE SUITE
#
#   bookworm          Debian 12's newest linux-image-6.1.0-N-arm64-unsigned
#   trixie-backports  the newest linux-binary-7.N.M+deb13-arm64 (the package
#                     of Debian 13's backported 7.x kernels that holds the
#                     image)
#
# It asks apt which package is newest for arm64 in that suite, downloads it
# with 'apt-get download PKG:arm64' (nothing is installed), unpacks it with
# dpkg-deb -x and keeps its vmlinuz (and config, if the package has one) as
# $HYPTRACE_CACHE/stock-kernels/<package version>/vmlinuz-<release>. Debian's
# arm64 vmlinuz is a plain arm64 Image. Progress goes to stderr; the last
# line on stdout is the path of the vmlinuz. Run again, it downloads nothing
# that is cached.
#
# With --dtb FILE (a path under the kernel's dtb directory, such as
# xilinx/zynqmp-zcu102-rev1.0.dtb), the last line is instead that board's
# device tree from the same kernel version's package of device trees
# (linux-base-KVER for the 7.x kernels, the image package itself for 6.1),
# kept as $HYPTRACE_CACHE/stock-kernels/<version>/dtb/FILE.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

STOCK=$HYPTRACE_CACHE/stock-kernels

usage() {
	sed -n '4,27s/^# \{0,1\}//p' "$0"
}

# The package names to look at for SUITE: "PREFIX REGEX", the prefix for
# apt-cache pkgnames and an extended regex for the whole name.
name_pattern() {
	case $1 in
	bookworm) echo 'linux-image-6.1.0- ^linux-image-6\.1\.0-[0-9]+-arm64-unsigned$' ;;
	trixie-backports) echo 'linux-binary-7. ^linux-binary-7\.[0-9]+\.[0-9]+\+deb13-arm64$' ;;
	*) return 1 ;;
	esac
}

# SUITE in the apt sources (scripts/lib.sh; trixie-backports, or bookworm
# on Debian 13), lists updated
ensure_suite() {
	add_suite_source "$1" || return 0
	apt_updated=0
	apt_update
}

# candidates SUITE: "NAME VERSION" of every matching arm64 package that an
# apt source of SUITE (or of its -security/-updates) offers, newest first.
# Two apt-cache calls only: each one reads all the package lists.
candidates() {
	local suite=$1 prefix pattern names
	read -r prefix pattern <<<"$(name_pattern "$suite")"
	names=$(apt-cache pkgnames "$prefix" 2>/dev/null | sed 's/:arm64$//' |
		grep -E "$pattern" | sort -u | sed 's/$/:arm64/') || return 0
	# madison: "NAME | VERSION | URI SUITE/COMPONENT ARCH Packages"
	# shellcheck disable=SC2086 # one argument per name
	apt-cache madison $names 2>/dev/null |
		awk -F' *[|] *' -v s="$suite" '
		{ split($3, w, " "); sub(/\/.*/, "", w[2]); n = $1
		  sub(/^ */, "", n); sub(/:arm64$/, "", n) }
		w[3] == "arm64" &&
		(w[2] == s || w[2] == s "-security" || w[2] == s "-updates") {
			print n, $2 }' |
		sort -u -V -r -k2,2
}

# The cache entry of a version is complete once it has its 'package' file:
# it is built aside and renamed into place.
cached_vmlinuz() {
	local dir=$STOCK/$1
	[ -f "$dir/package" ] || return 1
	compgen -G "$dir/vmlinuz-*" | head -n 1
}

# Set by main(): the download directory, removed at exit.
tmp=

# download NAME VERSION: the .deb into $tmp; 1 (quiet_why says why) if apt
# cannot get it.
download() {
	deb_download "$tmp" "$1" "$2" "$HYPTRACE_CACHE/logs/stock-kernel-download.log"
}

# unpack NAME VERSION: the downloaded .deb's vmlinuz into the cache.
unpack() {
	local name=$1 version=$2 dir=$STOCK/$2 deb f kver conf
	deb=$(compgen -G "$tmp/*.deb" | head -n 1)
	note "$(basename "$deb"): $(du -m "$deb" | cut -f1) MB"
	step "unpacking it (dpkg-deb -x)"
	mkdir -p "$tmp/root"
	run_quiet "dpkg-deb -x $(basename "$deb")" \
		"$HYPTRACE_CACHE/logs/stock-kernel-unpack.log" \
		dpkg-deb -x "$deb" "$tmp/root" || die "$quiet_why"
	# Debian 12 has /boot/vmlinuz-KVER, Debian 13's 7.x packages
	# /usr/lib/modules/KVER/vmlinuz. Keep the image and, when the package
	# has it, the config; the modules (hundreds of MB) are of no use here.
	mkdir -p "$tmp/entry"
	for f in "$tmp"/root/boot/vmlinuz-* "$tmp"/root/usr/lib/modules/*/vmlinuz; do
		[ -f "$f" ] || continue
		case $f in
		*/boot/vmlinuz-*) kver=${f##*/vmlinuz-}; conf=$(dirname "$f")/config-$kver ;;
		*) kver=$(basename "$(dirname "$f")"); conf=$(dirname "$f")/config ;;
		esac
		mv "$f" "$tmp/entry/vmlinuz-$kver"
		[ ! -f "$conf" ] || mv "$conf" "$tmp/entry/config-$kver"
		break
	done
	compgen -G "$tmp/entry/vmlinuz-*" >/dev/null ||
		die "$name $version has no vmlinuz (in /boot or /usr/lib/modules/*/): not a kernel image package"
	echo "$name $version" >"$tmp/entry/package"
	rm -rf "$dir"
	mv "$tmp/entry" "$dir"
	cached_vmlinuz "$version" >/dev/null || die "cache entry $dir is incomplete"
}

# fetch_dtb VERSION VMLINUZ FILE: print the cached FILE of that kernel's
# device trees, downloading the package that holds them if need be.
fetch_dtb() {
	local version=$1 kver=${2##*/vmlinuz-} file=$3 dst=$STOCK/$1/dtb/$3 pkg src
	if [ ! -f "$dst" ]; then
		case $kver in
		6.1.*) pkg=$name ;;
		*) pkg=linux-base-$kver ;;
		esac
		tmp=$(mktemp -d "$STOCK/.fetch.XXXXXX")
		trap 'rm -rf "$tmp"' EXIT
		chmod 755 "$tmp"
		download "$pkg" "$version" || die "$quiet_why"
		step "unpacking its device trees (dpkg-deb -x)"
		mkdir -p "$tmp/root"
		run_quiet "dpkg-deb -x $pkg" \
			"$HYPTRACE_CACHE/logs/stock-kernel-unpack.log" \
			dpkg-deb -x "$(compgen -G "$tmp/*.deb" | head -n 1)" \
			"$tmp/root" || die "$quiet_why"
		src=$(find "$tmp/root" -path "*/dtb*/$file" -print -quit)
		[ -n "$src" ] || die "$pkg $version has no device tree $file"
		mkdir -p "$(dirname "$dst")"
		cp "$src" "$dst.part" && mv "$dst.part" "$dst"
		note "$dst"
	fi
	echo "$dst"
}

# lookup SUITE: set name and version to the newest package of SUITE.
lookup() {
	local best
	best=$(candidates "$1" | head -n 1)
	if [ -z "$best" ] && [ "$apt_updated" = 0 ]; then
		apt_update
		best=$(candidates "$1" | head -n 1)
	fi
	[ -n "$best" ] ||
		die "apt offers no $(name_pattern "$1" | cut -d' ' -f2) for arm64 in $1"
	read -r name version <<<"$best"
	note "$name $version"
}

main() {
	case ${1:-} in
	-h|--help) usage; exit 0 ;;
	'') die "usage: $0 bookworm|trixie-backports (see --help)" ;;
	esac
	local suite name version vmlinuz dtb=
	if [ "$1" = --dtb ]; then
		[ $# -ge 2 ] || die "--dtb needs a file, e.g. xilinx/zynqmp-zcu102-rev1.0.dtb"
		dtb=$2
		shift 2
	fi
	[ $# = 1 ] || die "one suite only (see --help)"
	suite=$1
	name_pattern "$suite" >/dev/null ||
		die "unknown suite '$suite': bookworm or trixie-backports"

	mkdir -p "$STOCK" "$HYPTRACE_CACHE/logs"
	step "looking up the newest stock arm64 kernel in $suite"
	ensure_arm64
	ensure_suite "$suite"
	lookup "$suite"
	if ! vmlinuz=$(cached_vmlinuz "$version"); then
		tmp=$(mktemp -d "$STOCK/.fetch.XXXXXX")
		trap 'rm -rf "$tmp"' EXIT
		# apt downloads as its own user, which must be able to read here.
		chmod 755 "$tmp"
		if ! download "$name" "$version"; then
			# Old package lists name a version the archive no longer has.
			[ "$apt_updated" = 0 ] || die "$quiet_why"
			note "$quiet_why"
			note "the package lists may be out of date: updating them, then trying again"
			apt_update
			lookup "$suite"
		fi
		if ! vmlinuz=$(cached_vmlinuz "$version"); then
			compgen -G "$tmp/*.deb" >/dev/null ||
				download "$name" "$version" || die "$quiet_why"
			unpack "$name" "$version"
			vmlinuz=$(cached_vmlinuz "$version")
			note "$vmlinuz"
		fi
	else
		note "cached: $STOCK/$version"
	fi
	if [ -n "$dtb" ]; then
		fetch_dtb "$version" "$vmlinuz" "$dtb"
		return 0
	fi
	echo "$vmlinuz"
}

main "$@"
