#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Build hyptrace.ko (or any out-of-tree module) for a Debian stock arm64
# kernel, on this amd64 machine:
#
#   scripts/build-stock-module.sh SUITE [--src DIR] [-o OUT_DIR]
#   scripts/build-stock-module.sh SUITE --headers
#
#   SUITE        bookworm (Debian 12's 6.1) or trixie-backports (the newest
#                7.x), as for scripts/fetch-stock-kernel.sh, which this runs
#                first: the module is built against the linux-headers of the
#                same package version as the image that script prints.
#   --src DIR    the module's sources (a Kbuild file, or a Makefile for M=);
#                default host-driver/. DIR is copied to a scratch directory
#                together with its sibling ../shared when there is one (the
#                host driver includes ../shared), so DIR is never written to.
#   -o OUT_DIR   where the .ko files go; default $HYPTRACE_BUILD/stock/SUITE/
#   --headers    build nothing: fetch the headers and the compiler as for a
#                build, then print the headers' directory (the kernel build
#                directory, linux-headers-RELEASE), for another tool to
#                build against (tests/packaging/deb.sh runs DKMS with it)
#   -h, --help   show this text
#
# The headers (linux-headers-RELEASE for arm64, its -common package and the
# amd64 linux-kbuild package) are downloaded with apt-get download and
# unpacked once into $HYPTRACE_CACHE/stock-headers/<version>/. The module is
# compiled with the GCC the kernel was built with: on this machine when it
# runs the kernel's Debian release (bookworm's gcc-12 on Debian 12), else in
# a minimal Debian root of that release holding that GCC, made once with
# debootstrap, in $HYPTRACE_CACHE/stock-kbuild/<release>-gcc-<N>/root
# (trixie and gcc-14 for trixie-backports; needs root or sudo). A second run
# downloads nothing. Progress goes to stderr, the compiler's output to
# $HYPTRACE_CACHE/logs/stock-module-SUITE.log; the last line on stdout is the
# path of the .ko (one line per .ko if the sources make several).
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

HEADERS=$HYPTRACE_CACHE/stock-headers
KBUILD_ROOTS=$HYPTRACE_CACHE/stock-kbuild
LOGS=$HYPTRACE_CACHE/logs
CROSS=aarch64-linux-gnu-

usage() {
	sed -n '4,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"
}

# The Debian release whose compiler built SUITE's kernels.
suite_release() {
	case $1 in
	bookworm) echo bookworm ;;
	trixie-backports) echo trixie ;;
	*) return 1 ;;
	esac
}

# This machine's Debian release, by its code name.
host_release() {
	(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
}

apt_updated=0
apt_update() {
	[ "$apt_updated" = 0 ] || return 0
	step "apt-get update"
	run_quiet "apt-get update" "$LOGS/apt-update.log" as_root apt-get update ||
		die "$quiet_why"
	apt_updated=1
}

# deb_depends DEB: the package names DEB depends on, one a line (the first
# of any alternatives, without versions or architecture qualifiers).
deb_depends() {
	dpkg-deb -f "$1" Depends | tr ',' '\n' |
		sed -E 's/[|].*//; s/[(][^)]*[)]//g; s/:[a-z0-9]+//; s/[[:space:]]//g' | grep . || true
}

# Set by main(): the stock kernel's package version and release.
version='' release=''
# Removed at exit: the download stage and the scratch copy of the sources.
stage='' work=''
cleanup() {
	[ -z "$stage" ] || rm -rf "$stage"
	[ -z "$work" ] || rm -rf "$work"
}
trap cleanup EXIT

# The image's version and release, from scripts/fetch-stock-kernel.sh.
find_kernel() {
	local vmlinuz name
	vmlinuz=$("$HYPTRACE_TOP/scripts/fetch-stock-kernel.sh" "$1" | tail -n 1) || exit 1
	{ [ -f "$vmlinuz" ] && [ -f "$(dirname "$vmlinuz")/package" ]; } ||
		die "scripts/fetch-stock-kernel.sh $1 printed '$vmlinuz', not a cached vmlinuz"
	read -r name version <"$(dirname "$vmlinuz")/package"
	release=${vmlinuz##*/vmlinuz-}
	{ [ -n "$version" ] && [ -n "$release" ]; } || die "cannot tell $vmlinuz's version and release"
	note "kernel: $name $version, release $release"
}

# The cache entry of a version is complete once it has its 'packages' file:
# it is built aside and renamed into place.
headers_dir() { echo "$HEADERS/$version"; }
headers_ready() {
	[ -f "$(headers_dir)/packages" ] &&
		[ -f "$(headers_dir)/root/usr/src/linux-headers-$release/Makefile" ]
}

# download SPEC: 'apt-get download SPEC' into $stage; 1 with quiet_why set
# if apt cannot get it.
download() {
	step "downloading $1"
	run_quiet "apt-get download $1" "$LOGS/stock-headers-download.log" \
		env -C "$stage" apt-get download "$1"
}

# fetch_headers: download and unpack the headers of $version into the cache;
# 1 (quiet_why) if a download fails.
fetch_headers() {
	local dir deb deps common kbuild spec name top
	dir=$(headers_dir)
	stage=$(mktemp -d "$HEADERS/.fetch.XXXXXX")
	# apt downloads as its own user, which must be able to write here.
	chmod 755 "$stage"
	download "linux-headers-$release:arm64=$version" || return 1
	deb=$(compgen -G "$stage/linux-headers-${release}_*.deb" | head -n 1) ||
		die "apt-get download linux-headers-$release:arm64=$version left no .deb"
	deps=$(deb_depends "$deb")
	common=$(grep -E '^linux-headers-.*-common$' <<<"$deps" | head -n 1) ||
		die "linux-headers-$release depends on no linux-headers-*-common package"
	kbuild=$(grep -E '^linux-kbuild-' <<<"$deps" | head -n 1) ||
		die "linux-headers-$release depends on no linux-kbuild-* package"
	# The common files are for every architecture; kbuild's programs run
	# here. Both come from the same source package, in the same version.
	for spec in "$common=$version" "$kbuild:$(dpkg --print-architecture)=$version"; do
		download "$spec" || return 1
	done
	step "unpacking the headers (dpkg-deb -x)"
	mkdir -p "$stage/root"
	: >"$stage/packages"
	for deb in "$stage"/*.deb; do
		name=$(dpkg-deb -f "$deb" Package)
		note "$(basename "$deb"): $(du -m "$deb" | cut -f1) MB"
		run_quiet "dpkg-deb -x $(basename "$deb")" "$LOGS/stock-headers-unpack.log" \
			dpkg-deb -x "$deb" "$stage/root" || die "$quiet_why"
		echo "$name $(dpkg-deb -f "$deb" Version)" >>"$stage/packages"
		# What the chroot build must have to run kbuild's programs.
		[ "$name" != "$kbuild" ] || deb_depends "$deb" >"$stage/kbuild-depends"
	done
	rm -f "$stage"/*.deb
	top=$stage/root/usr/src/linux-headers-$release
	{ [ -f "$top/Makefile" ] && [ -f "$top/.config" ]; } ||
		die "linux-headers-$release $version has no usr/src/linux-headers-$release/{Makefile,.config}"
	[ -d "$stage/root/usr/src/${common#linux-headers-}" ] ||
		[ -d "$stage/root/usr/src/$common" ] ||
		die "$common $version has no usr/src/$common"
	# The Makefile includes the common one, and may set KBUILD_OUTPUT, by
	# their installed paths (/usr/src/...): point them at the cache entry.
	sed -i "s#/usr/src/#$dir/root/usr/src/#g" "$top/Makefile"
	rm -rf "$dir"
	mv "$stage" "$dir"
	stage=
	headers_ready || die "cache entry $dir is incomplete"
	du -sm "$dir" | awk '{ print "    " $1 " MB in " $2 }' >&2
}

# The GCC major version that built the kernel, from its .config.
kernel_gcc() {
	local text
	text=$(sed -n 's/^CONFIG_CC_VERSION_TEXT="\(.*\)"$/\1/p' "$1/.config")
	sed -nE 's/^[^ ]*gcc-([0-9]+) .*/\1/p' <<<"$text" | grep . ||
		die "the kernel was built by '$text', not a Debian gcc-N: not supported"
}

# ensure_host_gcc N: the cross GCC N on this machine.
ensure_host_gcc() {
	command -v "${CROSS}gcc-$1" >/dev/null && return 0
	step "installing gcc-$1-aarch64-linux-gnu on this machine"
	run_quiet "apt-get install gcc-$1-aarch64-linux-gnu" "$LOGS/stock-kbuild-apt.log" \
		as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y \
		--no-install-recommends -o DPkg::Lock::Timeout=600 \
		"gcc-$1-aarch64-linux-gnu" || die "$quiet_why"
}

# in_root ROOT COMMAND...: run COMMAND as root inside ROOT (no network
# set-up beyond the host's, which apt needs).
in_root() {
	local root=$1
	shift
	as_root chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/root LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"
}

# root_install ROOT LOGNAME PACKAGE...: install PACKAGEs inside ROOT from
# fresh package lists, then drop the lists again.
root_install() {
	local root=$1 log=$LOGS/stock-kbuild-$2-apt.log
	shift 2
	step "installing inside the build root: $*"
	run_quiet "apt-get install (build root)" "$log" in_root "$root" /bin/sh -c '
		set -e
		apt-get -o Acquire::Check-Valid-Until=false update
		apt-get install -y --no-install-recommends "$@"
		apt-get clean
		rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin' sh "$@" ||
		die "$quiet_why"
}

# ensure_root RELEASE GCC: print the path of a Debian RELEASE root that has
# the arm64 cross GCC and make, built once with debootstrap.
ensure_root() {
	local rel=$1 gcc=$2 base uri st root deps
	base=$KBUILD_ROOTS/$rel-gcc-$gcc
	root=$base/root
	if [ ! -f "$base/ready" ] || [ ! -x "$root/usr/bin/${CROSS}gcc-$gcc" ]; then
		[ "$(uname -m)" = x86_64 ] || die "only x86_64 hosts are supported (found $(uname -m))"
		command -v debootstrap >/dev/null 2>&1 || [ -x /usr/sbin/debootstrap ] || {
			step "installing debootstrap on this machine"
			run_quiet "apt-get install debootstrap" "$LOGS/apt-debootstrap.log" \
				as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y \
				--no-install-recommends -o DPkg::Lock::Timeout=600 debootstrap ||
				die "$quiet_why"
		}
		[ -e "/usr/share/debootstrap/scripts/$rel" ] ||
			die "this debootstrap does not know '$rel'; upgrade the debootstrap package"
		uri=$(debian_archive_uri)
		mkdir -p "$KBUILD_ROOTS"
		for st in "$KBUILD_ROOTS"/.build.*; do
			[ ! -e "$st" ] || remove_tree "$st"
		done
		st=$(mktemp -d "$KBUILD_ROOTS/.build.XXXXXX")
		chmod 755 "$st"
		step "debootstrap --variant=minbase $rel (a Debian $rel root with gcc-$gcc for arm64, about 320 MB; once)"
		note "archive: $uri"
		run_quiet "debootstrap $rel" "$LOGS/stock-kbuild-$rel-debootstrap.log" \
			as_root nice debootstrap --variant=minbase "$rel" "$st/root" "$uri" || {
			remove_tree "$st"
			die "$quiet_why"
		}
		as_root tee "$st/root/etc/apt/sources.list.d/hyptrace.sources" >/dev/null <<EOS
Types: deb
URIs: $uri
Suites: $rel $rel-updates
Components: main
EOS
		as_root rm -f "$st/root/etc/apt/sources.list"
		printf '#!/bin/sh\nexit 101\n' | as_root tee "$st/root/usr/sbin/policy-rc.d" >/dev/null
		as_root chmod 755 "$st/root/usr/sbin/policy-rc.d"
		# kbuild's run-time packages too, for this version's programs.
		mapfile -t deps < <(cat "$(headers_dir)/kbuild-depends" 2>/dev/null)
		root_install "$st/root" "$rel" make "gcc-$gcc-aarch64-linux-gnu" "${deps[@]}"
		in_root "$st/root" "${CROSS}gcc-$gcc" --version | head -n 1 >"$st/ready"
		remove_tree "$base"
		mv "$st" "$base"
	fi
	note "build root: $root ($(cat "$base/ready"))"
	echo "$root"
}

# ensure_root_depends ROOT: kbuild's run-time packages inside ROOT (they
# differ from one kernel version to the next; a new one is added once).
ensure_root_depends() {
	local root=$1 p missing=()
	[ -f "$(headers_dir)/kbuild-depends" ] || return 0
	while read -r p; do
		in_root "$root" dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
	done <"$(headers_dir)/kbuild-depends"
	[ ${#missing[@]} = 0 ] || root_install "$root" "$(basename "$(dirname "$root")")" "${missing[@]}"
}

# ensure_host_depends: the same on this machine, when it builds here (Linux
# 7.x's kbuild needs pahole, which Debian 13 does not install by default).
ensure_host_depends() {
	local p missing=()
	[ -f "$(headers_dir)/kbuild-depends" ] || return 0
	# dpkg-query, not dpkg -s, which fails on a package installed for
	# two architectures (libc6 with libc6:arm64, as make deps has it).
	while read -r p; do
		dpkg-query -W -f='${db:Status-Status}\n' "$p" 2>/dev/null |
			grep -qx installed || missing+=("$p")
	done <"$(headers_dir)/kbuild-depends"
	[ ${#missing[@]} = 0 ] && return 0
	step "installing on this machine what kbuild needs: ${missing[*]}"
	run_quiet "apt-get install ${missing[*]}" "$LOGS/stock-kbuild-apt.log" \
		as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y \
		--no-install-recommends -o DPkg::Lock::Timeout=600 \
		"${missing[@]}" || die "$quiet_why"
}

# copy_sources SRC: SRC and the shared/ its sources include into a new
# $work, without build products, at the same places relative to each other:
# a directory of this tree keeps its path under the top (host-driver/ and
# tests/modules/ both reach the top's shared/ as they do here); another
# directory is copied with its sibling ../shared. Sets $mod (SRC's copy)
# and $srcparent (what $work stands for).
copy_sources() {
	local src=$1 rel d
	work=$(mktemp -d "${TMPDIR:-/tmp}/hyptrace-stock.XXXXXX")
	chmod 755 "$work"
	if [[ $src == "$HYPTRACE_TOP"/* ]]; then
		srcparent=$HYPTRACE_TOP
		rel=${src#"$HYPTRACE_TOP"/}
	else
		srcparent=$(dirname "$src")
		rel=$(basename "$src")
	fi
	for d in "$rel" shared; do
		[ -d "$srcparent/$d" ] || continue
		[ "$d" = "$rel" ] || [ "$rel" != shared ] || continue
		tar -C "$srcparent" --exclude='*.o' --exclude='*.ko' \
			--exclude='*.mod' --exclude='*.mod.c' --exclude='.*.cmd' \
			--exclude='modules.order' --exclude='Module.symvers' \
			--exclude='.tmp_versions' -cf - "$d" |
			tar -C "$work" -xf -
	done
	mod=$work/$rel
}

# make_module HDR MODDIR [ROOT]: 'make modules' for MODDIR against HDR, on
# this machine or inside ROOT; exits with one line on failure.
make_module() {
	local hdr=$1 mod=$2 root=${3:-} log=$LOGS/stock-module-$suite.log paths
	local mk=(nice make -C "$hdr" M="$mod" ARCH=arm64 CROSS_COMPILE="$CROSS"
		-j"$(nproc)" modules)
	local user=() first
	step "make modules: $(basename "$mod") against linux-headers-$release${root:+ (in $(basename "$(dirname "$root")"))}"
	if [ -z "$root" ]; then
		run_quiet make "$log" env -u KBUILD_OUTPUT -u O -u M "${mk[@]}" && return 0
	else
		[ "$(id -u)" = 0 ] || user=(--userspec="$(id -u):$(id -g)")
		# A private mount namespace: the headers and the sources appear at
		# their own paths inside the root and vanish when the build ends.
		# shellcheck disable=SC2016 # expands in the inner shell
		run_quiet make "$log" as_root unshare --mount --propagation private -- sh -c '
			set -e
			root=$1 hdr=$2 work=$3; shift 3
			for d in "$hdr" "$work" /dev; do
				mkdir -p "$root$d"
				mount --bind "$d" "$root$d"
			done
			mount -t proc proc "$root/proc"
			exec chroot "$@"' sh "$root" "$(headers_dir)" "$work" \
			"${user[@]}" "$root" /usr/bin/env -i PATH=/usr/bin:/bin HOME=/tmp \
			LC_ALL=C.UTF-8 "${mk[@]}" && { as_root rmdir "$root$work"; return 0; }
		as_root rmdir "$root$work" 2>/dev/null || true
	fi
	# The compiler's and modpost's complaints, with the scratch paths (or,
	# from Linux 6.13 on, paths relative to the module) turned back into
	# the source paths.
	paths="s#$work/#$srcparent/#g; s#^([^/ ][^: ]*\.[chS]:[0-9])#$src/\1#"
	grep -E 'error:|ERROR:|undefined|No rule' "$log" | head -n 20 |
		sed -E "$paths; s/^/    /" >&2 || true
	first=$(grep -E -m1 'error:|ERROR:|No rule' "$log" | sed -E "$paths") || true
	die "building $(basename "$mod") for $release failed${first:+: $first} (log: $log)"
}

main() {
	local src=$HYPTRACE_TOP/host-driver out='' rel gcc hdr mod root='' ko vm kos=()
	local headers_only=0
	suite=
	while [ $# -gt 0 ]; do
		case $1 in
		-h|--help) usage; exit 0 ;;
		--src) [ $# -ge 2 ] || die "--src needs a directory"; src=$2; shift ;;
		--src=*) src=${1#--src=} ;;
		-o) [ $# -ge 2 ] || die "-o needs a directory"; out=$2; shift ;;
		--headers) headers_only=1 ;;
		-*) die "unknown option '$1' (see --help)" ;;
		*) [ -z "$suite" ] || die "one suite only (see --help)"; suite=$1 ;;
		esac
		shift
	done
	[ -n "$suite" ] || die "usage: $0 bookworm|trixie-backports [--src DIR] [-o OUT_DIR] (see --help)"
	rel=$(suite_release "$suite") ||
		die "unknown suite '$suite': bookworm or trixie-backports"
	[ -d "$src" ] || die "--src $src: no such directory"
	src=$(cd "$src" && pwd)
	[ -f "$src/Kbuild" ] || [ -f "$src/Makefile" ] ||
		die "--src $src has neither a Kbuild nor a Makefile"
	out=${out:-$HYPTRACE_BUILD/stock/$suite}
	mkdir -p "$HEADERS" "$LOGS" "$out"
	out=$(cd "$out" && pwd)

	find_kernel "$suite"
	# One download or root build at a time; the builds themselves may
	# run side by side.
	exec 9>"$HEADERS/.lock"
	flock -n 9 || { note "another build-stock-module.sh is fetching; waiting"; flock 9; }
	if headers_ready; then
		note "headers cached: $(headers_dir)"
	elif ! fetch_headers; then
		# Old package lists: the archive has moved on since they were
		# read. Update them and take whatever the suite has now.
		[ "$apt_updated" = 0 ] || die "$quiet_why"
		note "$quiet_why"
		note "the package lists may be out of date: updating them, then trying again"
		rm -rf "$stage"
		stage=
		apt_update
		find_kernel "$suite"
		headers_ready || fetch_headers || die "$quiet_why"
	fi
	hdr=$(headers_dir)/root/usr/src/linux-headers-$release
	gcc=$(kernel_gcc "$hdr")
	if [ "$(host_release)" = "$rel" ]; then
		ensure_host_gcc "$gcc"
		ensure_host_depends
		note "compiler: $("${CROSS}gcc-$gcc" --version | head -n 1) (this machine)"
	else
		root=$(ensure_root "$rel" "$gcc")
		ensure_root_depends "$root"
	fi
	exec 9>&-
	if [ "$headers_only" = 1 ]; then
		echo "$hdr"
		return 0
	fi

	copy_sources "$src"
	make_module "$hdr" "$mod" "$root"
	compgen -G "$mod/*.ko" >/dev/null || die "make modules made no .ko in $src"
	vm=$(command -v modinfo || echo /sbin/modinfo)
	for ko in "$mod"/*.ko; do
		cp "$ko" "$out/"
		ko=$out/$(basename "$ko")
		[ "$("$vm" -F vermagic "$ko" | cut -d' ' -f1)" = "$release" ] ||
			die "$ko has vermagic '$("$vm" -F vermagic "$ko")', not $release"
		note "$(basename "$ko"): vermagic $("$vm" -F vermagic "$ko")"
		kos+=("$ko")
	done
	printf '%s\n' "${kos[@]}"
}

main "$@"
