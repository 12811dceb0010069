#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The tracing hypercalls and CPU_MPIDR check every argument and the state
# they find (TRACE_LOAD's ADOPT flag, without an early buffer, loads as
# without it), and answer with the codes shared/hyptrace_abi.h documents,
# issued one by one from the guest kernel (hvc_probe.ko). Bad calls change
# nothing: the good call after them still works, and the hypervisor's memory
# canary is intact at power-off.
# shellcheck source=tests/boot/lib.sh
. "$(dirname "$0")/lib.sh"

# Event ids are 1..NR_EVENTS (shared/hyp_events.h, one EVENT per line)
NR_EVENTS=$(grep -cE '^[[:space:]]*EVENT\([a-z_0-9]+, [0-9]+,' \
	"$HYPTRACE_TOP/shared/hyp_events.h")
[ "$NR_EVENTS" -gt 0 ] || fail "no events found in shared/hyp_events.h"

# name|hvc_probe arguments|expected x0
CALLS="
sum_first|fid=0xc600000c|0
enable_unloaded|fid=0xc6000004 a1=1|-6
disable_unloaded|fid=0xc6000004 a1=0|0
swap_unloaded|fid=0xc6000005 a1=0|-6
reset_unloaded|fid=0xc6000006 a1=0|-6
hide_unloaded|fid=0xc600000a a1=0 a2=1|-6
unload_unloaded|fid=0xc6000003|-6
load_zero|fid=0xc6000002 a1=0|-3
load_bad_flags|fid=0xc6000002 a1=8192 a2=4|-3
early_none|fid=0xc600000d|0
last_boot_cold|fid=0xc600000e a1=0|0
last_boot_swap_none|fid=0xc600000e a1=1 a2=0|-6
last_boot_swap_cpu4|fid=0xc600000e a1=1 a2=4|-3
last_boot_release_none|fid=0xc600000e a1=2|-6
last_boot_bad_op|fid=0xc600000e a1=3|-3
host_panic|fid=0xc600000f|0
load_adopt_nothing_zero|fid=0xc6000002 a1=0 a2=2|-3
load_huge|fid=0xc6000002 a1=0xffffffffffffffff|-4
load_carveout|fid=0xc6000002 a1=0x2000000|-4
load|fid=0xc6000002 a1=8192|0
load_again|fid=0xc6000002 a1=8192|-5
load_again_huge|fid=0xc6000002 a1=0xffffffffffffffff|-5
swap_cpu4|fid=0xc6000005 a1=4|-3
swap_cpu_huge|fid=0xc6000005 a1=0x100000000|-3
reset_cpu4|fid=0xc6000006 a1=4|-3
hide_cpu4|fid=0xc600000a a1=4 a2=1|-3
hide_value_2|fid=0xc600000a a1=1 a2=2|-3
hide_ok|fid=0xc600000a a1=2 a2=1|0
show_ok|fid=0xc600000a a1=2 a2=0|0
enable_2|fid=0xc6000004 a1=2|-3
event_0|fid=0xc6000007 a1=0 a2=1|-3
event_past_last|fid=0xc6000007 a1=$((NR_EVENTS + 1)) a2=1|-3
event_value_2|fid=0xc6000007 a1=1 a2=2|-3
event_ok|fid=0xc6000007 a1=3 a2=1|0
clock_mult0|fid=0xc6000008 a1=0 a2=0|-3
clock_mult33|fid=0xc6000008 a1=0x100000000 a2=0|-3
clock_shift64|fid=0xc6000008 a1=16 a2=64|-3
clock_ok|fid=0xc6000008 clock=1 offset_ns=-5000000000|0
clock_back|fid=0xc6000008 clock=1 offset_ns=-6000000000|-8
clock_leap|fid=0xc6000008 clock=1 offset_ns=576460752303423488|-8
clock_5s|fid=0xc6000008 clock=1 offset_ns=0|-8
clock_rate|fid=0xc6000008 a1=0xffffffff a2=0 a3=0 a4=0|-8
clock_fwd|fid=0xc6000008 clock=1 offset_ns=-4000000000|0
enable|fid=0xc6000004 a1=1|0
write|fid=0xc6000009 a1=42|0
reset_ok|fid=0xc6000006 a1=3|0
disable|fid=0xc6000004 a1=0|0
unload|fid=0xc6000003|0
unload_again|fid=0xc6000003|-6
query|fid=0xc6000001|0
mpidr_0|fid=0xc600000b a1=0|0
mpidr_3|fid=0xc600000b a1=3|0
mpidr_cpu4|fid=0xc600000b a1=4|-3
mpidr_cpu_huge|fid=0xc600000b a1=0x100000000|-3
sum_last|fid=0xc600000c a1=1 a2=2 a3=3 a4=4|0
"

# guest_args: one "NAME|ARGS" argument per call, quoted for the guest's sh
guest_args() {
	local name args
	while IFS='|' read -r name args _; do
		[ -n "$name" ] || continue
		printf " '%s|%s'" "$name" "$args"
	done <<<"$CALLS"
}

# field CALL KEY: the KEY=value of CALL's answer (ret, a1, a2, a3)
field() {
	value "$1" | tr ',' '\n' | sed -n "s/^$2=//p"
}

# The guest side: guest/55-trace-abi.sh
boot smp4 --add "$GUEST_DIR/55-trace-abi.sh" --cmd "sh /root/55-trace-abi.sh$(guest_args)"
expect_ok
[ "$(value alive)" = 42 ] || fail "the guest did not run a command after the calls"

n=0
while IFS='|' read -r name args want; do
	[ -n "$name" ] || continue
	got=$(field "$name" ret)
	[ "$got" = "$want" ] || fail "$name ($args) answered x0=${got:-nothing}, want $want"
	n=$((n + 1))
done <<<"$CALLS"

# The carve-out QUERY names is the one Linux reserved, and LOAD put the
# descriptor (16 + 4 CPUs x (16 + 8 x 4 pages) = 208 bytes) at its start.
base=$(field query a1)
size=$(field query a2)
printf -v node 'hyptrace-trace@%x' "$base"
expect_line "OF: reserved mem: .* $node" "the carve-out QUERY reports"
[ "$((size))" = $((32 << 20)) ] || fail "QUERY carve-out size $size, want 32 MiB"
[ "$(field load a1)" = "$base" ] || fail "LOAD put the descriptor at $(field load a1), not at the carve-out base $base"
[ "$(field load a2)" = 0xd0 ] || fail "LOAD descriptor size $(field load a2), want 0xd0"
# x3: the ABI version and the events of shared/, 4 CPUs, 4 KiB pages
want=$(printf '0x%x' $(($(abi_define ABI_MAJOR) << 48 | $(abi_define ABI_MINOR) << 32 |
			NR_EVENTS << 16 | 4 << 8 | 12)))
[ "$(field query a3)" = "$want" ] || fail "QUERY x3 $(field query a3), want $want"
# A cold boot has no last boot: QUERY answers descriptor 0, size 0
[ "$(field last_boot_cold a1),$(field last_boot_cold a2)" = 0x0,0x0 ] ||
	fail "LAST_BOOT QUERY on a cold boot answered $(field last_boot_cold a1),$(field last_boot_cold a2), want 0x0,0x0"
# QEMU's CPU N has MPIDR N (Aff0), and its /cpus lists them in that order.
[ "$(field mpidr_0 a1)" = 0x0 ] || fail "CPU_MPIDR(0) answered $(field mpidr_0 a1), want 0x0"
[ "$(field mpidr_3 a1)" = 0x3 ] || fail "CPU_MPIDR(3) answered $(field mpidr_3 a1), want 0x3"
# IMAGE_SUM: the same sum first and last, over the image's text and
# read-only data as the linker laid them out, and the canary intact.
[ "$(field sum_first a1)" = "$(field sum_last a1)" ] ||
	fail "IMAGE_SUM changed from $(field sum_first a1) to $(field sum_last a1)"
elf=$HYPTRACE_BUILD/hyp/hyptrace.elf
sym() { nm "$elf" | awk -v s="$1" '$3 == s { print $1 }'; }
ro=$(printf '0x%x' $((0x$(sym __rodata_end) - 0x$(sym __hyp_start))))
[ "$(field sum_last a2)" = "$ro" ] || fail "IMAGE_SUM summed $(field sum_last a2) bytes, the image's read-only part is $ro"
[ "$(field sum_last a3)" = 0x0 ] || fail "IMAGE_SUM: canary changed at $(field sum_last a3)"
expect_line 'memory canary intact' "Linux and the bad calls left the hypervisor's memory alone"
expect_healthy
pass "$n tracing calls answered as documented, bad ones included; carve-out and descriptor where QUERY and LOAD say"
