#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Install every host package hyptrace needs on Debian 12 or 13, the Linux source
# package (7.2 or the newest 7.N that Debian ships in trixie-backports) and
# Debian's static arm64 busybox for the guest; with --doc-picture, what make
# doc-picture needs besides. Safe to run again: it only does what is missing.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

PACKAGES=(
	make gcc git perl python3 cpio xz-utils gzip file iproute2 procps
	gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu libc6-dev-arm64-cross
	qemu-system-arm
	u-boot-qemu u-boot-tools mtools dosfstools fdisk
	device-tree-compiler libfdt-dev
	bc bison flex libssl-dev libelf-dev kmod
	libtraceevent-dev trace-cmd protobuf-compiler
	# GNU time: the peak memory of `hyptrace stats` (tests/tools/t-stats.sh)
	time
	clang llvm valgrind
	# HMAC of agent -N's key (tools/hyptrace/lib/vtauth.c): for the
	# native tool, and libsodium.a for the static arm64 one
	libsodium-dev libsodium-dev:arm64
	# make doc: the man pages from Documentation/man/*.adoc
	asciidoctor
	# the host check "shellcheck" of make test: the boot tests' guest
	# scripts (tests/boot/guest/) and the bench's scripts
	shellcheck
)
# The sanitizer and fuzzer runtimes of the release's default clang: Debian 12
# names its version (clang 14); later releases have libclang-rt-dev for it.
case $(debian_codename) in
bookworm) PACKAGES+=(libclang-rt-14-dev) ;;
*) PACKAGES+=(libclang-rt-dev) ;;
esac
# make deb and its test (tests/packaging/deb.sh): the package build (and
# build-essential, which dpkg-buildpackage checks for itself), the man
# pages, lintian, DKMS against stock headers, the arm64 tool run under
# qemu-user
PACKAGES+=(build-essential dpkg-dev debhelper dh-dkms dkms lintian asciidoctor man-db qemu-user)
# make doc-picture alone (it passes --doc-picture): the README's KernelShark
# picture (scripts/doc-screenshot.sh), a Qt program on a virtual display
if [ "${1:-}" = --doc-picture ]; then
	PACKAGES+=(kernelshark xvfb xauth xdotool imagemagick)
fi

apt_updated=
apt_update() {
	[ -n "$apt_updated" ] && return 0
	step "apt-get update"
	run_logged "$HYPTRACE_CACHE/logs/apt-update.log" as_root apt-get update
	apt_updated=1
}

missing_packages() {
	local p
	for p in "$@"; do
		dpkg-query -W -f='${db:Status-Status}\n' "$p" 2>/dev/null |
			grep -qx installed || echo "$p"
	done
}



# Debian's arm64 packages: libsodium-dev:arm64 above, busybox-static:arm64
enable_arm64() {
	dpkg --print-foreign-architectures | grep -qx arm64 && return 0
	step "enabling the arm64 architecture in dpkg (for libsodium-dev:arm64, busybox-static:arm64)"
	as_root dpkg --add-architecture arm64
	apt_updated=
}

install_host_packages() {
	local missing
	enable_arm64
	missing=$(missing_packages "${PACKAGES[@]}")
	if [ -z "$missing" ]; then
		note "host packages: all present"
		return 0
	fi
	apt_update
	step "installing host packages: $(echo $missing)"
	run_logged "$HYPTRACE_CACHE/logs/apt-install.log" as_root env \
		DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $missing
}

# Pick the newest linux-source-7.N (N >= 2) offered by trixie-backports.
install_linux_source() {
	if ls /usr/src/linux-source-7.*.tar.xz >/dev/null 2>&1; then
		note "linux source: $(ls /usr/src/linux-source-7.*.tar.xz | sort -V | tail -n 1)"
		return 0
	fi
	# A source just added needs its lists, even after an earlier update
	if add_backports_source; then
		apt_updated=
	fi
	apt_update
	local pkg
	pkg=$(apt-cache pkgnames linux-source-7. 2>/dev/null |
	      grep -E '^linux-source-7\.([2-9]|[1-9][0-9])$' | sort -V | tail -n 1)
	[ -n "$pkg" ] || die "no linux-source-7.N (N >= 2) in the apt sources"
	step "installing $pkg from trixie-backports (about 150 MB)"
	run_logged "$HYPTRACE_CACHE/logs/apt-linux-source.log" as_root env \
		DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
		-t trixie-backports "$pkg"
}

# Debian's static busybox for arm64, unpacked into the cache.
fetch_busybox() {
	local dir=$HYPTRACE_CACHE/busybox-arm64
	[ -x "$dir/bin/busybox" ] && { note "busybox: $dir/bin/busybox"; return 0; }
	enable_arm64
	apt_update
	step "downloading busybox-static:arm64"
	local tmp
	tmp=$(mktemp -d)
	(cd "$tmp" && apt-get download busybox-static:arm64 >/dev/null) ||
		die "apt-get download busybox-static:arm64 failed"
	rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
	dpkg-deb -x "$tmp"/busybox-static_*_arm64.deb "$dir.tmp"
	# Debian 13's package has it in usr/bin (merged /usr), Debian 12's in bin.
	if [ ! -e "$dir.tmp/bin/busybox" ] && [ -f "$dir.tmp/usr/bin/busybox" ]; then
		mkdir -p "$dir.tmp/bin"
		mv "$dir.tmp/usr/bin/busybox" "$dir.tmp/bin/busybox"
	fi
	rm -rf "$tmp" "$dir" && mv "$dir.tmp" "$dir"
	[ -x "$dir/bin/busybox" ] || die "busybox-static:arm64 has no bin/busybox"
}

mkdir -p "$HYPTRACE_CACHE/logs"
install_host_packages
install_linux_source
fetch_busybox
