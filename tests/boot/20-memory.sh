#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The hypervisor hides its own memory and the trace carve-out from Linux
# with /reserved-memory "no-map" nodes, sizes the carve-out from
# hyptrace.carveout=, and finds its memory canary intact at power-off.
# shellcheck source=tests/boot/lib.sh
. "$(dirname "$0")/lib.sh"

# reserved_size NAME: the KiB figure of Linux's "OF: reserved mem:" line for
# the node NAME@..., which must say nomap.
reserved_size() {
	local line
	line=$(grep -E "OF: reserved mem: .*$1@[0-9a-f]+" "$BOOT_LOG" | tail -n 1)
	[ -n "$line" ] || fail "no 'OF: reserved mem:' line for $1"
	[[ $line == *" nomap "* ]] || fail "$1 is not nomap: '$line'"
	sed -E 's/.*\(([0-9]+) KiB\).*/\1/' <<<"$line"
}

# in_reserved ADDR: ADDR is inside a top-level "reserved" range of
# /proc/iomem (as the guest printed it with @iomem: prefixes), i.e. Linux
# does not count it as System RAM.
in_reserved() {
	local addr=$((16#$1)) range start end
	while read -r range; do
		start=$((16#${range%-*}))
		end=$((16#${range#*-}))
		[ "$addr" -ge "$start" ] && [ "$addr" -le "$end" ] && return 0
	done < <(grep -a -o '@iomem=[0-9a-f]*-[0-9a-f]*:reserved' "$BOOT_LOG" |
		sed 's/@iomem=//; s/:reserved//')
	return 1
}

check_default() {
	# Top-level /proc/iomem lines only (no leading blank), one per output
	# line with an @iomem= prefix and no spaces.
	boot default --cmd "sed -n 's/^\([0-9a-f]*-[0-9a-f]*\) : \(.*\)/@iomem=\1:\2/p' /proc/iomem | tr ' ' _"
	expect_ok
	expect_line 'OF: reserved mem: .* hyptrace-hyp@40200000'
	reserved_size hyptrace-hyp >/dev/null
	local trace_kib trace_base
	trace_kib=$(reserved_size hyptrace-trace)
	[ "$trace_kib" = 32768 ] || fail "trace carve-out is $trace_kib KiB, want 32768 (32 MiB default)"
	# 32 MiB at the top of 1 GiB of RAM at 0x40000000.
	trace_base=$(grep -E -o 'hyptrace-trace@[0-9a-f]+' "$BOOT_LOG" | tail -n 1 | cut -d@ -f2)
	[ "$((16#$trace_base))" = "$((0x80000000 - 32 * 1024 * 1024))" ] ||
		fail "trace carve-out at 0x$trace_base, want 0x7e000000 (top of RAM)"
	in_reserved 40200000 || fail "0x40200000 (hypervisor) is not a reserved range in /proc/iomem"
	in_reserved "$trace_base" || fail "0x$trace_base (trace carve-out) is not a reserved range in /proc/iomem"
	expect_line 'hyptrace: SYSTEM_OFF from CPU [0-9]+, memory canary intact'
	expect_healthy
}

check_carveout() {
	boot carveout-64M --carveout 64M --cmd 'true'
	expect_ok
	expect_line 'Kernel command line: .*hyptrace.carveout=64M'
	local trace_kib
	trace_kib=$(reserved_size hyptrace-trace)
	[ "$trace_kib" = 65536 ] || fail "trace carve-out is $trace_kib KiB, want 65536 (--carveout 64M)"
	expect_line 'hyptrace: SYSTEM_OFF from CPU [0-9]+, memory canary intact'
	expect_healthy
}

# hyptrace.carveout=SIZE@BASE: where it says; a BASE off 2 MiB is refused
check_carveout_base() {
	boot carveout-at --carveout 32M@1536M --cmd 'true'
	expect_ok
	expect_line 'OF: reserved mem: .* hyptrace-trace@60000000' \
		"the carve-out at 1536M (0x60000000)"
	[ "$(reserved_size hyptrace-trace)" = 32768 ] ||
		fail "--carveout 32M@1536M: not 32768 KiB"
	expect_healthy
	boot carveout-odd --append 'hyptrace.carveout=32M@1537M' --cmd 'true'
	[ "$BOOT_RC" = 125 ] || fail "a carve-out at 1537M booted (exit $BOOT_RC)"
	expect_line 'hyptrace: PANIC.*hyptrace.carveout= base 0x60100000: the carve-out must start on 2 MiB' \
		"one line refusing a base off 2 MiB"
	# (2^44 - 2) MiB is 2^64 - 2 MiB: a size that wraps any sum with it
	# (the carve-out was placed over the hypervisor at 1026M)
	boot carveout-wrap --append 'hyptrace.carveout=17592186044414M@1026M' \
		--cmd 'true'
	[ "$BOOT_RC" = 125 ] || fail "a carve-out of 2^64 - 2 MiB booted (exit $BOOT_RC)"
	expect_line 'hyptrace: PANIC.*RAM too small for a 0xffffffffffe00000-byte carve-out \(bank 0x40000000\.\.0x7fffffff\)' \
		"one line refusing a size that wraps"
}

check_default
check_carveout
check_carveout_base
pass "hyptrace-hyp@40200000 and hyptrace-trace (32 MiB, 64 MiB with --carveout 64M, at 0x60000000 with 32M@1536M; 1537M and 17592186044414M@1026M refused) reserved nomap, canary intact"
