#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Fetch Debian's U-Boot for the Raspberry Pi, for an SD card that boots
# hyptrace the way a Pi user would (qemu-run.sh --board raspi4b --uboot):
#
#   scripts/fetch-uboot-rpi.sh CONFIG
#
#   CONFIG  rpi_4 (Pi 4), rpi_3 (Pi 3) or rpi_arm64 (either), as Debian's
#           package u-boot-rpi names its builds
#
# It asks apt for the newest u-boot-rpi for arm64, downloads it with
# 'apt-get download' (nothing is installed), unpacks it with dpkg-deb -x
# and keeps its builds as $HYPTRACE_CACHE/u-boot-rpi/<version>/<CONFIG>/
# u-boot.bin. Progress goes to stderr; the last line on stdout is the path
# of that u-boot.bin. Run again, it downloads nothing that is cached.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

PKG=u-boot-rpi
CACHE=$HYPTRACE_CACHE/u-boot-rpi
tmp=	# the download directory, removed at exit

# The version apt would fetch for arm64 (its candidate), or nothing
candidate() {
	apt-cache show --no-all-versions "$PKG:arm64" 2>/dev/null |
		sed -n 's/^Version: //p' | head -n 1
}

main() {
	local config=${1:-} version dir
	case $config in
	-h|--help) sed -n '4,16s/^# \{0,1\}//p' "$0"; exit 0 ;;
	rpi_4|rpi_3|rpi_arm64) ;;
	*) die "usage: $0 rpi_4|rpi_3|rpi_arm64 (see --help)" ;;
	esac
	mkdir -p "$CACHE" "$HYPTRACE_CACHE/logs"
	ensure_arm64
	version=$(candidate)
	if [ -z "$version" ]; then
		apt_update
		version=$(candidate)
	fi
	[ -n "$version" ] || die "apt offers no $PKG for arm64"
	dir=$CACHE/$version
	# A cache entry is complete once it has its 'package' file: it is
	# built aside and renamed into place.
	if [ ! -f "$dir/package" ]; then
		tmp=$(mktemp -d "$CACHE/.fetch.XXXXXX")
		trap 'rm -rf "$tmp"' EXIT
		chmod 755 "$tmp"	# apt downloads as its own user
		if ! deb_download "$tmp" "$PKG" "$version" \
			"$HYPTRACE_CACHE/logs/u-boot-rpi-download.log"; then
			# Old package lists may name a version the archive no
			# longer has.
			note "$quiet_why"
			apt_update
			version=$(candidate)
			dir=$CACHE/$version
			deb_download "$tmp" "$PKG" "$version" \
				"$HYPTRACE_CACHE/logs/u-boot-rpi-download.log" ||
				die "$quiet_why"
		fi
		step "unpacking it (dpkg-deb -x)"
		mkdir -p "$tmp/root" "$tmp/entry"
		run_quiet "dpkg-deb -x $PKG" "$HYPTRACE_CACHE/logs/u-boot-rpi-unpack.log" \
			dpkg-deb -x "$(compgen -G "$tmp/*.deb" | head -n 1)" "$tmp/root" ||
			die "$quiet_why"
		[ -d "$tmp/root/usr/lib/u-boot" ] ||
			die "$PKG $version has no /usr/lib/u-boot"
		cp -a "$tmp/root/usr/lib/u-boot/." "$tmp/entry/"
		echo "$PKG $version" >"$tmp/entry/package"
		rm -rf "$dir"
		mv "$tmp/entry" "$dir"
	fi
	[ -f "$dir/$config/u-boot.bin" ] || die "$PKG $version has no $config/u-boot.bin"
	note "$PKG $version"
	echo "$dir/$config/u-boot.bin"
}

main "$@"
