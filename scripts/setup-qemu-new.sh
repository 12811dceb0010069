#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Make the newest Debian QEMU (qemu-system-arm from trixie-backports) usable
# on this Debian 12 machine, without touching the system's QEMU.
#
# That package is built for Debian 13 (glibc 2.38 and newer), so it cannot be
# installed here. Instead this script builds a minimal Debian 13 root in the
# cache, once per package version, installs the package inside it, and writes
# a wrapper that runs the root's QEMU through the root's own dynamic loader
# and libraries:
#
#   $HYPTRACE_CACHE/qemu-trixie/<version>/root/                 the Debian 13 root
#   $HYPTRACE_CACHE/qemu-trixie/<version>/qemu-system-aarch64   the wrapper
#   $HYPTRACE_CACHE/qemu-trixie/current -> <version>            the newest built
# <version> is the Debian version without its epoch, e.g. 11.1.3+ds-1~bpo13+1.
#
# The wrapper takes the same arguments as qemu-system-aarch64, e.g.
#   HYPTRACE_QEMU=$(scripts/setup-qemu-new.sh) ./qemu-run.sh --cpu neoverse-n2
# The script prints the wrapper's path on its last line (stdout; progress
# goes to stderr) and also writes it to $HYPTRACE_BUILD/qemu-new.env as
# HYPTRACE_QEMU_NEW=PATH.
#
# Safe to run again: when the version that the host's apt lists name for
# trixie-backports (or, without such lists, the newest one built) is already
# there, it only checks the wrapper and prints its path. Needs root (or sudo)
# for debootstrap and chroot when it builds.
#
# Options:
#   --rebuild   build the root again even if this version is there
#   -h, --help  show this text
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

SUITE=trixie
BACKPORTS=trixie-backports
PACKAGE=qemu-system-arm
BASE=$HYPTRACE_CACHE/qemu-trixie
LOGS=$HYPTRACE_CACHE/logs
WRAPPER_NAME=qemu-system-aarch64

opt_rebuild=0
while [ $# -gt 0 ]; do
	case $1 in
	--rebuild) opt_rebuild=1 ;;
	-h|--help) sed -n '3,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
	*) die "unknown option '$1' (see --help)" ;;
	esac
	shift
done

# The trixie-backports version of the package as the host's apt lists know
# it (setup-deps.sh adds that source), or nothing. Reads no network, and
# reads the lists directly: apt-cache takes seconds on a busy machine.
host_hint_version() {
	local f
	for f in /var/lib/apt/lists/*_dists_"$BACKPORTS"_main_binary-amd64_Packages*; do
		[ -f "$f" ] || continue
		/usr/lib/apt/apt-helper cat-file "$f" 2>/dev/null || true
	done | awk -v p="$PACKAGE" '
		$0 == "Package: " p { want = 1; next }
		/^$/ { want = 0 }
		want && /^Version: / { print $2 }' | sort -V | tail -n 1
}

# A version's directory name: the version without its epoch (the full
# version is in the file "version" there).
version_dir() { printf '%s\n' "${1#*:}"; }

# The full version built in directory DIR.
dir_version() { cat "$1/version" 2>/dev/null || true; }

# wrapper_ok WRAPPER: it runs and says which QEMU it is.
wrapper_ok() {
	[ -x "$1" ] && "$1" --version 2>/dev/null | grep -q '^QEMU emulator version'
}

# Print the result: the env file, then the wrapper's path as the last line.
finish() {
	local wrapper=$1
	mkdir -p "$HYPTRACE_BUILD"
	printf 'HYPTRACE_QEMU_NEW=%s\n' "$wrapper" >"$HYPTRACE_BUILD/qemu-new.env"
	note "$("$wrapper" --version | head -n 1)"
	note "wrapper: $wrapper (also in $HYPTRACE_BUILD/qemu-new.env)"
	printf '%s\n' "$wrapper"
	exit 0
}

ensure_debootstrap() {
	command -v debootstrap >/dev/null 2>&1 ||
		[ -x /usr/sbin/debootstrap ] && return 0
	step "installing debootstrap on the host"
	run_logged "$LOGS/apt-debootstrap.log" as_root env \
		DEBIAN_FRONTEND=noninteractive apt-get install -y \
		--no-install-recommends -o DPkg::Lock::Timeout=600 debootstrap
}

# write_wrapper FILE DIR VERSION: FILE runs DIR/root's QEMU through
# DIR/root's loader. QEMU_MODULE_DIR keeps it from loading the system QEMU's
# modules; -L points it at its own ROMs and firmware descriptions (it would
# look next to /proc/self/exe, which is the loader).
write_wrapper() {
	local file=$1 dir=$2 version=$3
	cat >"$file.tmp" <<EOF
#!/bin/sh
# $PACKAGE $version (Debian $BACKPORTS), run from the Debian 13 root
# next to this file; written by hyptrace's scripts/setup-qemu-new.sh.
# Use it exactly like qemu-system-aarch64.
root='$dir/root'
QEMU_MODULE_DIR="\$root/usr/lib/x86_64-linux-gnu/qemu"
export QEMU_MODULE_DIR
exec "\$root/lib64/ld-linux-x86-64.so.2" --argv0 "\$0" \\
	--library-path "\$root/usr/lib/x86_64-linux-gnu:\$root/lib/x86_64-linux-gnu" \\
	"\$root/usr/bin/qemu-system-aarch64" -L "\$root/usr/share/qemu" "\$@"
EOF
	chmod 755 "$file.tmp"
	mv "$file.tmp" "$file"
}

# Build the root in a staging directory and move it to BASE/<version>.
# Prints that directory.
build_root() {
	local uri stage root version vdir
	[ "$(uname -m)" = x86_64 ] || die "only x86_64 hosts are supported (found $(uname -m))"
	ensure_debootstrap
	[ -e /usr/share/debootstrap/scripts/$SUITE ] ||
		die "this debootstrap does not know '$SUITE'; upgrade the debootstrap package"
	uri=$(debian_archive_uri)
	# What an interrupted run left (this run holds the lock, so no other
	# build is under way).
	for stage in "$BASE"/.build.*; do
		[ ! -e "$stage" ] || remove_tree "$stage"
	done
	stage=$(mktemp -d "$BASE/.build.XXXXXX")
	chmod 755 "$stage"
	# shellcheck disable=SC2064 # expand now: a path, not a variable
	trap "remove_tree '$stage'" EXIT
	root=$stage/root

	step "debootstrap --variant=minbase $SUITE (a Debian 13 root for QEMU; 260 MB with QEMU)"
	note "archive: $uri"
	run_logged "$LOGS/qemu-trixie-debootstrap.log" as_root \
		debootstrap --variant=minbase "$SUITE" "$root" "$uri"

	as_root tee "$root/etc/apt/sources.list.d/hyptrace.sources" >/dev/null <<EOS
Types: deb
URIs: $uri
Suites: $SUITE $SUITE-updates $BACKPORTS
Components: main
EOS
	# debootstrap wrote the same archive into sources.list; keep one copy.
	as_root rm -f "$root/etc/apt/sources.list"
	# No daemons may start inside the root (QEMU's packages start none,
	# but a dependency might try).
	printf '#!/bin/sh\nexit 101\n' | as_root tee "$root/usr/sbin/policy-rc.d" >/dev/null
	as_root chmod 755 "$root/usr/sbin/policy-rc.d"

	step "installing $PACKAGE from $BACKPORTS inside the root"
	run_logged "$LOGS/qemu-trixie-apt.log" as_root chroot "$root" /bin/sh -c "
		set -e
		export DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8
		apt-get -o Acquire::Check-Valid-Until=false update
		apt-get install -y --no-install-recommends -t $BACKPORTS $PACKAGE
		apt-get clean"
	# shellcheck disable=SC2016 # dpkg-query's own ${Version}
	version=$(as_root chroot "$root" dpkg-query -W -f='${Version}' "$PACKAGE")
	[ -n "$version" ] || die "$PACKAGE is not installed in the root"
	as_root rm -rf "$root/var/lib/apt/lists/"* "$root/var/cache/apt/"*.bin
	[ -x "$root/usr/bin/qemu-system-aarch64" ] ||
		die "$PACKAGE $version has no /usr/bin/qemu-system-aarch64"

	vdir=$BASE/$(version_dir "$version")
	# The wrapper names the final place; the move makes it valid.
	write_wrapper "$stage/$WRAPPER_NAME" "$vdir" "$version"
	printf '%s\n' "$version" >"$stage/version"
	if [ -e "$vdir" ]; then
		# --rebuild, or a copy that does not run: replace it. A QEMU
		# still running from the old copy keeps its open files.
		note "replacing the earlier copy of $version"
		mv "$vdir" "$stage.old"
		mv "$stage" "$vdir"
		remove_tree "$stage.old"
	else
		mv "$stage" "$vdir"
	fi
	trap - EXIT
	remove_tree "$stage"
	printf '%s\n' "$vdir"
}

mkdir -p "$BASE" "$LOGS"
# One set-up at a time: tests and users may start this concurrently.
exec 9>"$BASE/.lock"
if ! flock -n 9; then
	note "another setup-qemu-new.sh is running; waiting for it"
	flock 9
fi

hint=$(host_hint_version)
current=
[ -L "$BASE/current" ] && current=$(readlink "$BASE/current")
if [ "$opt_rebuild" = 0 ]; then
	# The version the host's apt lists name, if built.
	if [ -n "$hint" ] && wrapper_ok "$BASE/$(version_dir "$hint")/$WRAPPER_NAME"; then
		note "$PACKAGE $hint from $BACKPORTS: already set up"
		ln -sfn "$(version_dir "$hint")" "$BASE/current"
		finish "$BASE/$(version_dir "$hint")/$WRAPPER_NAME"
	fi
	# Otherwise the newest built, unless the host knows of a newer one.
	if [ -n "$current" ] && wrapper_ok "$BASE/$current/$WRAPPER_NAME"; then
		if [ -z "$hint" ] ||
		   dpkg --compare-versions "$hint" le "$(dir_version "$BASE/$current")"; then
			note "$PACKAGE $(dir_version "$BASE/$current"): already set up${hint:+ (apt lists: $hint)}"
			finish "$BASE/$current/$WRAPPER_NAME"
		fi
		note "the apt lists name $PACKAGE $hint, newer than $(dir_version "$BASE/$current"): building it"
	fi
fi

[ -n "$hint" ] || note "the host's apt lists do not name $BACKPORTS's $PACKAGE; building whatever it has"
vdir=$(build_root)
[ -n "$vdir" ] || die "building the root gave no directory"
wrapper=$vdir/$WRAPPER_NAME
wrapper_ok "$wrapper" || die "$wrapper does not run: see $LOGS/qemu-trixie-*.log"
ln -sfn "$(basename "$vdir")" "$BASE/current"
finish "$wrapper"
