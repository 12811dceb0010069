#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The Debian packages (issue 24, "Installable"): 'make deb' builds them,
# then this checks what a user of each would get.
#
#   lintian      no error on either .changes (its warnings are shown)
#   hyptrace     installed into a scratch root with dpkg --root, the tool
#                runs --help from there and says the package's version
#                (--version); the arm64 package's tool runs
#                --help under qemu-aarch64
#   man pages    man finds hyptrace(1) in that root and renders every page
#                of the packages, which hold every page of Documentation/man
#                (but qemu-run.sh's). A tree without Documentation/man (the
#                pages are not written yet) makes none: that is said and not
#                counted; once it has Documentation/man, a missing page fails.
#   hyptrace-hypervisor
#                hyptrace.bin is an arm64 Image, boot.scr a U-Boot script
#                image of boot.cmd, hyptrace.env says how to boot
#   hyptrace-dkms
#                the sources are the tree's host-driver/ and shared/, and
#                DKMS (the real dkms, in a private tree under the test's
#                directory: nothing goes into /var/lib/dkms or /lib/modules)
#                builds hyptrace.ko from them against Debian's stock 6.1
#                headers (scripts/build-stock-module.sh bookworm --headers),
#                cross-compiling as on the board, with the package's
#                version (modinfo); it refuses x86_64 and 5.x
#
#   make install
#                make install and make install-dkms (PREFIX=/usr, into a
#                DESTDIR) install the same files as the packages, and the
#                packaged hyptrace.bin is the boot tests' image
#
#   tests/packaging/deb.sh          (tests/run-all.sh runs it)
#
# Prints one line per check and "PASS: packaging: N checks" or "FAIL: ..."
# last. Works in $HYPTRACE_BUILD/packaging-test, kept for a look afterwards.

# shellcheck disable=SC2317 # functions that check() calls, not unreachable
set -uo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../../scripts/lib.sh"

T=$HYPTRACE_BUILD/packaging-test
DEB_OUT=$HYPTRACE_BUILD/deb
nok=0
nbad=0

ok() { nok=$((nok + 1)); echo "  ok   $*"; }
bad() { nbad=$((nbad + 1)); echo "  FAIL $*"; }
check() {
	local what=$1
	shift
	if "$@"; then ok "$what"; else bad "$what"; fi
}
fatal() { echo "FAIL: packaging: $*"; exit 1; }

# check_lintian: no error on the .changes files, the rest listed
check_lintian() {
	local out=$T/lintian.txt rc=0
	lintian --fail-on error "${changes[@]}" >"$out" 2>&1 || rc=$?
	grep -E '^[EWIX]: ' "$out" | sed 's/^/       /'
	echo "       lintian: $(grep -c '^E: ' "$out") errors, $(grep -c '^W: ' "$out") warnings"
	check "lintian: no error ($(basename -a "${changes[@]}" | tr '\n' ' ' | sed 's/ $//'))" \
		[ "$rc" = 0 ]
}

# scratch_install DEB ROOT: dpkg -i into an empty dpkg database under ROOT
# (the package's dependencies are this machine's: --force-depends)
scratch_install() {
	local root=$2 force=--force-depends
	[ "$(id -u)" = 0 ] || force+=,not-root
	mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates"
	: >"$root/var/lib/dpkg/status"
	dpkg --root="$root" --log="$T/dpkg.log" "$force" -i "$1" \
		>"$T/dpkg-install.log" 2>&1
}

# in_dir DIR PATH: PATH is under DIR
in_dir() { [ -n "$2" ] && [ "${2#"$1"/}" != "$2" ]; }

# check_man: the man pages, once the packages are unpacked. man finds
# hyptrace(1) in the tool's scratch root and renders every page of both
# packages; every page of Documentation/man but qemu-run.sh's (mk/install.mk,
# MAN_SKIP) is in one of them. Before the tree has Documentation/man there
# are none: that is said, and not counted.
check_man() {
	local dirs=("$T/tool-root/usr/share/man" "$T/dkms-root/usr/share/man")
	local pages=() missing=() p path want bad_pages=0
	mapfile -t pages < <(find "${dirs[@]}" -type f -name '*.[1-9]*' 2>/dev/null | sort)
	if [ ! -d "$HYPTRACE_TOP/Documentation/man" ] && [ ${#pages[@]} = 0 ]; then
		echo "  --   man pages: none, this tree has no Documentation/man yet (not counted)"
		return 0
	fi
	for want in "$HYPTRACE_TOP"/Documentation/man/*.adoc; do
		want=$(basename "$want" .adoc)
		[ "$want" != qemu-run.sh.1 ] || continue
		[ -n "$(find "${dirs[@]}" -name "$want.*" 2>/dev/null)" ] || missing+=("$want")
	done
	check "the packages hold every page of Documentation/man (${#pages[@]})${missing[*]:+; missing: ${missing[*]}}" \
		[ ${#missing[@]} = 0 ]
	path=$(MANPATH=${dirs[0]} man -w hyptrace 2>/dev/null)
	check "man -w hyptrace finds ${path:-nothing} in the tool's scratch root" \
		in_dir "$T/tool-root" "$path"
	for p in "${pages[@]}"; do
		if ! MANWIDTH=80 man -l -P cat "$p" >"$T/man.txt" 2>"$T/man.err" ||
		   [ -s "$T/man.err" ] || ! grep -q '^NAME' "$T/man.txt"; then
			bad "man -l ${p#"$T"/} renders with a NAME and no warning: $(head -n 1 "$T/man.err")"
			bad_pages=$((bad_pages + 1))
		fi
	done
	[ "$bad_pages" != 0 ] || [ ${#pages[@]} = 0 ] ||
		ok "man -l renders all ${#pages[@]} pages with a NAME section"
}

# helps OUT COMMAND...: COMMAND (a hyptrace --help) exits 0 and prints
# the usage, its output in OUT
helps() {
	local out=$1
	shift
	"$@" >"$out" 2>&1 && grep -q '^usage: hyptrace' "$out"
}

# ko_field FIELD KO: modinfo's FIELD of KO (modinfo is in /sbin, which a
# user's PATH may lack)
ko_field() {
	modinfo -F "$1" "$2" 2>/dev/null || /sbin/modinfo -F "$1" "$2"
}

check_tool() {
	local root=$T/tool-root deb=$DEB_OUT/hyptrace_${version}_$host_arch.deb
	check "dpkg --root installs $(basename "$deb") into a scratch root" \
		scratch_install "$deb" "$root"
	check "the installed hyptrace --help exits 0 with its usage" \
		helps "$T/help.txt" "$root/usr/bin/hyptrace" --help
	check "the installed hyptrace --version is the package's, $version" \
		grep -q "^hyptrace $version " <<<"$("$root/usr/bin/hyptrace" --version)"

	root=$T/tool-arm64
	deb=$DEB_OUT/hyptrace_${version}_arm64.deb
	[ "$host_arch" != arm64 ] || return 0
	dpkg-deb -x "$deb" "$root"
	# The arm64 libraries make deps installed (libsodium-dev:arm64) serve.
	check "$(basename "$deb")'s hyptrace --help exits 0 under qemu-aarch64" \
		helps "$T/help-arm64.txt" qemu-aarch64 -L / "$root/usr/bin/hyptrace" --help
	check "$(basename "$deb") depends on libsodium23" \
		grep -q 'libsodium23' <<<"$(dpkg-deb -f "$deb" Depends)"
}

check_hypervisor() {
	local root=$T/hyp-root boot
	dpkg-deb -x "$DEB_OUT/hyptrace-hypervisor_${version}_all.deb" "$root"
	boot=$root/usr/share/hyptrace/boot
	# booting.rst: "ARM\x64" at offset 56 of the Image header
	check "usr/lib/hyptrace/hyptrace.bin is an arm64 Image" \
		[ "$(od -An -c -j 56 -N 4 "$root/usr/lib/hyptrace/hyptrace.bin" | tr -d ' ')" = 'ARMd' ]
	# A script image: a 64-byte header, its one length word and a zero
	# word, then the script itself.
	check "boot.scr is a U-Boot script image of boot.cmd" \
		cmp -s <(tail -c +73 "$boot/boot.scr") "$boot/boot.cmd"
	check "hyptrace.env sets hyptrace_mode=hypervisor" \
		grep -qx 'hyptrace_mode=hypervisor' "$boot/hyptrace.env"
}

# The files of host-driver/ and shared/ DKMS needs: the tree's, less the
# build products .gitignore keeps out of git
dkms_sources_match() {
	diff <(cd "$1" && find host-driver shared -type f | sort) \
		<(cd "$HYPTRACE_TOP" && git ls-files host-driver shared | sort) \
		>"$T/dkms-sources.diff"
}

# dkms_build ARCH KERNEL LOG: dkms build in the private tree
dkms_build() {
	# A strip for arm64 objects where the board would have its own; no
	# module signing (dkms would make a key in /var/lib/dkms).
	PATH=$T/bin:$PATH ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- \
		sign_file=/nonexistent dkms build -m hyptrace -v "$version" \
		-k "$2" -a "$1" --dkmstree "$T/dkms" --sourcetree "$src" \
		--kernelsourcedir "$hdr" --no-depmod -j "$(nproc)" >"$3" 2>&1
}

check_dkms() {
	local root=$T/dkms-root release ko before after rc=0 vermagic
	dpkg-deb -x "$DEB_OUT/hyptrace-dkms_${version}_all.deb" "$root"
	src=$root/usr/src
	check "dkms.conf has PACKAGE_VERSION=\"$version\"" \
		grep -qx "PACKAGE_VERSION=\"$version\"" "$src/hyptrace-$version/dkms.conf"
	check "the DKMS sources are the tree's host-driver/ and shared/" \
		dkms_sources_match "$src/hyptrace-$version"

	hdr=$(bash "$HYPTRACE_TOP/scripts/build-stock-module.sh" bookworm --headers \
		2>"$T/headers.log" | tail -n 1)
	[ -f "$hdr/Makefile" ] ||
		fatal "scripts/build-stock-module.sh bookworm --headers: $(tail -n 1 "$T/headers.log")"
	release=${hdr##*/linux-headers-}
	mkdir -p "$T/bin" "$T/dkms"
	printf '#!/bin/sh\nexec aarch64-linux-gnu-strip "$@"\n' >"$T/bin/strip"
	chmod +x "$T/bin/strip"

	before=$(find /var/lib/dkms /lib/modules -maxdepth 3 2>/dev/null | sort | md5sum)
	step "dkms build hyptrace/$version for $release (aarch64), about a minute"
	dkms_build aarch64 "$release" "$T/dkms-build.log" || rc=$?
	ko=$(find "$T/dkms/hyptrace/$version/$release/aarch64/module" -name 'hyptrace.ko*' 2>/dev/null)
	check "dkms build makes hyptrace.ko for $release (log: $T/dkms-build.log)" \
		[ "$rc:${ko:+built}" = 0:built ]
	# dkms keeps the compiler's output in the build directory on failure
	[ -n "$ko" ] || grep -m 3 -E 'error|Error' \
		"$T/dkms/hyptrace/$version/build/make.log" 2>/dev/null | sed 's/^/       /'
	if [ -n "$ko" ]; then
		vermagic=$(ko_field vermagic "$ko")
		check "its vermagic is $release's ($vermagic)" [ "${vermagic%% *}" = "$release" ]
		modversion=$(ko_field version "$ko")
		check "its modinfo version is the package's ($modversion)" \
			[ "$modversion" = "$version" ]
	fi
	# BUILD_EXCLUSIVE_*: dkms exits 77 before compiling anything
	rc=0
	dkms_build x86_64 "$release" "$T/dkms-x86.log" || rc=$?
	check "dkms refuses to build it for x86_64 (exit $rc)" [ "$rc" = 77 ]
	rc=0
	dkms_build aarch64 5.10.0-30-arm64 "$T/dkms-5.10.log" || rc=$?
	check "dkms refuses to build it for Linux 5.10 (exit $rc)" [ "$rc" = 77 ]
	after=$(find /var/lib/dkms /lib/modules -maxdepth 3 2>/dev/null | sort | md5sum)
	check "dkms left /var/lib/dkms and /lib/modules alone" [ "$before" = "$after" ]
}

# packaged_files: what the three packages install under /usr (their
# unpacked roots), man pages uncompressed, without /usr/share/doc
packaged_files() {
	local r
	for r in tool-root hyp-root dkms-root; do
		(cd "$T/$r" && find usr -type f ! -path 'usr/share/doc/*')
	done | sed -E 's#^(usr/share/man/.*)\.gz$#\1#' | sort
}

# make install and make install-dkms into a DESTDIR with PREFIX=/usr put
# what the packages hold, the hypervisor as 'make hyp' builds it for the
# boot tests
check_make_install() {
	local dest=$T/install
	make --no-print-directory -C "$HYPTRACE_TOP" install install-dkms \
		DESTDIR="$dest" PREFIX=/usr BUILD="$HYPTRACE_BUILD" \
		>"$T/make-install.log" 2>&1 ||
		{ bad "make install: $(tail -n 1 "$T/make-install.log")"; return 0; }
	check "make install install-dkms PREFIX=/usr: the packages' files" \
		diff <(cd "$dest" && find usr -type f | sort) <(packaged_files)
	check "make install-dkms: the package's dkms.conf" \
		cmp -s "$dest/usr/src/hyptrace-$version/dkms.conf" \
		"$T/dkms-root/usr/src/hyptrace-$version/dkms.conf"
	check "the package's hyptrace.bin is the boot tests' ($HYPTRACE_BUILD/hyp/hyptrace.bin)" \
		cmp -s "$HYPTRACE_BUILD/hyp/hyptrace.bin" "$T/hyp-root/usr/lib/hyptrace/hyptrace.bin"
}

main() {
	local start=$SECONDS
	rm -rf "$T"
	mkdir -p "$T"
	host_arch=$(dpkg --print-architecture)
	version=$("$HYPTRACE_TOP/scripts/version.sh")

	step "make deb (log: $T/make-deb.log)"
	make --no-print-directory -C "$HYPTRACE_TOP" deb BUILD="$HYPTRACE_BUILD" \
		DEB_OUT="$DEB_OUT" >"$T/make-deb.log" 2>&1 ||
		fatal "make deb: $(tail -n 1 "$T/make-deb.log")"
	mapfile -t changes < <(grep '\.changes$' "$T/make-deb.log")
	ok "make deb: $(basename -a "$DEB_OUT"/*.deb | tr '\n' ' ')($((SECONDS - start)) s)"
	check "a .changes for $host_arch and arm64" [ ${#changes[@]} -ge 2 ]

	check_lintian
	check_tool
	check_hypervisor
	check_dkms
	check_man
	check_make_install

	if [ "$nbad" = 0 ]; then
		echo "PASS: packaging: $nok checks ($((SECONDS - start)) s)"
		exit 0
	fi
	echo "FAIL: packaging: $nbad of $((nok + nbad)) checks failed"
	exit 1
}

main
