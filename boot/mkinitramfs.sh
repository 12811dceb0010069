#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the guest's base initramfs:
#
#   boot/mkinitramfs.sh OUT.cpio.gz
#
# It holds Debian's static arm64 busybox, the init files from boot/rootfs/,
# the host module (host-driver/hyptrace.ko, which rcS loads) and the test
# modules (tests/modules/*.ko plus the kernel's remote_test.ko) under
# /lib/modules/hyptrace/ (with HYPTRACE_MODULES_OUT set, the .ko files come
# from its host-driver/ and tests/modules/ instead: make kasan's own), and
# the kernel's own ftrace selftests
# (tools/testing/selftests/ftrace of the guest kernel's source) under
# /usr/share/kselftest/ftrace/. qemu-run.sh appends a small per-run archive
# (the --cmd command and --add files) to it.
#
# The archive is rebuilt only when one of its inputs changed. No root is
# needed: cpio records every file as owned by root, and /dev/console comes
# from the kernel's built-in initramfs.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"

# Values from build/kernel.env, read rather than sourced: a value may contain
# spaces (KERNEL_PACKAGE), which a sourcing shell would try to run.
kenv() {
	local env=$HYPTRACE_BUILD/kernel.env
	[ -f "$env" ] || die "$env missing: build the kernel first (make kernel)"
	sed -n "s/^$1=//p" "$env"
}

# The guest's copy of the kernel's ftrace selftests, taken from the source
# tree at build time: they must match the kernel they test.
FTRACE_SELFTESTS=usr/share/kselftest/ftrace

# Where hyptrace.ko and the test modules were built (Makefile: MODULES_OUT)
KO_TOP=${HYPTRACE_MODULES_OUT:-$HYPTRACE_TOP}

# The files that go into the archive, as "SOURCE DEST" lines.
list_inputs() {
	local busybox=$1 kbuild=$2 ksrc=$3 f

	echo "$busybox bin/busybox"
	(cd "$HYPTRACE_TOP/boot/rootfs" && find . -type f | LC_ALL=C sort) |
		while read -r f; do
			echo "$HYPTRACE_TOP/boot/rootfs/${f#./} ${f#./}"
		done
	for f in "$KO_TOP"/host-driver/hyptrace.ko \
		 "$KO_TOP"/tests/modules/*.ko \
		 "$kbuild/kernel/trace/remote_test.ko"; do
		[ -f "$f" ] && echo "$f lib/modules/hyptrace/$(basename "$f")"
	done
	# The tool, built static for arm64 (make tools)
	f=$HYPTRACE_BUILD/tools/arm64/hyptrace
	[ -f "$f" ] && echo "$f usr/bin/hyptrace"
	(cd "$ksrc/tools/testing/selftests/ftrace" &&
		find . -type f | LC_ALL=C sort) |
		while read -r f; do
			echo "$(selftest_source "$ksrc/tools/testing/selftests/ftrace" "${f#./}")" \
				"$FTRACE_SELFTESTS/${f#./}"
		done
	return 0
}

# selftest_source DIR FILE: where the guest's copy of FILE comes from.
# test.d/remotes/unloading.tc kills its trace_pipe reader and checks at
# once that the buffer unloaded, before the reader has necessarily exited
# and closed the file: under TCG on busy cores it sometimes has not, and
# 70-ftrace-remotes failed on it ("[6] Test trace remote unloading" of the
# kernel's own test remote). The guest gets a copy that waits for the
# reader first, as the test means to; the rest is the kernel's as it is.
# If the kernel's text changes, its file is taken unchanged.
selftest_source() {
	local src=$1/$2 fixed
	if [ "$2" != test.d/remotes/unloading.tc ] ||
	   ! grep -qx '    kill \$pid' "$src"; then
		echo "$src"
		return
	fi
	fixed=$HYPTRACE_BUILD/ftrace-fixed/unloading.tc
	mkdir -p "${fixed%/*}"
	sed 's/^    kill \$pid$/    kill $pid; wait $pid || true/' "$src" >"$fixed"
	echo "$fixed"
}

# A digest of every input's name and content, and of this script.
inputs_digest() {
	local src dest
	{
		sha256sum <"$0"
		while read -r src dest; do
			echo "$dest $(sha256sum <"$src")"
		done
	} | sha256sum | cut -c1-16
}

stage_tree() {
	local stage=$1 src dest d

	# Mount points and the places the guest scripts expect.
	for d in bin sbin usr/bin usr/sbin dev proc sys tmp root run mnt \
		 etc/hyptrace lib/modules/hyptrace var/log; do
		mkdir -p "$stage/$d"
	done
	while read -r src dest; do
		mkdir -p "$stage/$(dirname "$dest")"
		cp "$src" "$stage/$dest"
	done
	# Git keeps the exec bits, but a checkout with core.fileMode=false or a
	# copy through another tool may not: set them explicitly.
	chmod 755 "$stage/bin/busybox" "$stage/init" "$stage"/etc/init.d/* \
		"$stage"/sbin/*
	[ ! -f "$stage/usr/bin/hyptrace" ] || chmod 755 "$stage/usr/bin/hyptrace"
	chmod 755 "$stage/$FTRACE_SELFTESTS/ftracetest"
	chmod 1777 "$stage/tmp"
	chmod 700 "$stage/root"
}

main() {
	local out=${1:-}
	[ -n "$out" ] || die "usage: $0 OUT.cpio.gz"

	local busybox=$HYPTRACE_CACHE/busybox-arm64/bin/busybox
	[ -x "$busybox" ] ||
		die "no arm64 busybox at $busybox: run scripts/setup-deps.sh"
	local kbuild ksrc
	kbuild=$(kenv KERNEL_BUILD)
	ksrc=$(kenv KERNEL_SRC)
	[ -f "$kbuild/kernel/trace/remote_test.ko" ] ||
		die "no remote_test.ko in $kbuild: the kernel build is incomplete"
	[ -x "$ksrc/tools/testing/selftests/ftrace/ftracetest" ] ||
		die "no ftrace selftests in $ksrc: the kernel source is incomplete"
	compgen -G "$KO_TOP/tests/modules/*.ko" >/dev/null ||
		die "no $KO_TOP/tests/modules/*.ko: run 'make modules' first"
	[ -f "$KO_TOP/host-driver/hyptrace.ko" ] ||
		die "no $KO_TOP/host-driver/hyptrace.ko: run 'make host-driver' first"

	local inputs digest
	inputs=$(list_inputs "$busybox" "$kbuild" "$ksrc")
	digest=$(inputs_digest <<<"$inputs")
	if [ -f "$out" ] && [ "$(cat "$out.digest" 2>/dev/null)" = "$digest" ]; then
		note "initramfs up to date: $out"
		return 0
	fi

	step "building the guest initramfs"
	local stage
	stage=$(mktemp -d "${TMPDIR:-/tmp}/hyptrace-initramfs.XXXXXX")
	# shellcheck disable=SC2064 # expand now: $stage is local
	trap "rm -rf '$stage'" EXIT
	stage_tree "$stage" <<<"$inputs"

	mkdir -p "$(dirname "$out")"
	# -mindepth 1: an entry for "." would make the guest's / take the
	# staging directory's mode.
	(cd "$stage" && find . -mindepth 1 | LC_ALL=C sort |
		cpio -o -H newc -R 0:0 --quiet) | gzip -9n >"$out.tmp"
	mv "$out.tmp" "$out"
	echo "$digest" >"$out.digest"
	note "$out: $(du -k "$out" | cut -f1) KiB, modules:" \
		"$(cd "$stage/lib/modules/hyptrace" && echo *.ko)"
}

main "$@"
