#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The hypervisor's CPU numbers are Linux's even when the boot CPU is not the
# first entry of /cpus. QEMU's own device tree is reordered to cpu@3,
# cpu@0, cpu@1, cpu@2 (cpu@N has MPIDR N; QEMU boots MPIDR 0), so Linux's
# CPU 1 is MPIDR 3 and CPU 0 the boot CPU, not the first entry. Booted
# with it:
# - Linux numbers the CPUs as expected (the test's premise), the hypervisor
#   prints the same map, and hyptrace.ko's MPIDR check agrees;
# - a selftest event written on each Linux CPU shows in trace with that
#   CPU's number;
# - CPU 1's hotplug shows its CPU_OFF and its PSCI entry on CPU 1;
# - echo > per_cpu/cpu1/trace empties CPU 1's events and nobody else's;
# - per_cpu/cpuN/trace_pipe (a reader-page swap per CPU) gives the events
#   written on CPU N.
# shellcheck source=tests/boot/lib.sh
. "$(dirname "$0")/lib.sh"

HOTPLUG_CPU=1
# Linux's numbering of that tree: the boot CPU is 0, the others follow in
# /cpus order (arm64 of_parse_and_init_cpus()). N:MPIDR.
LINUX_MAP="0:0x0 1:0x3 2:0x1 3:0x2"

DTB_DIR=$TEST_LOGS/$TEST_NAME-dtb
rm -rf "$DTB_DIR"
mkdir -p "$DTB_DIR"

# QEMU's device tree for the machine the boots below use.
read -r -a extra <<<"${HYPTRACE_TEST_QEMU_ARGS:-}"
"$HYPTRACE_TOP/qemu-run.sh" --no-build --quiet "${extra[@]+"${extra[@]}"}" \
	--dump-dtb "$DTB_DIR/virt.dtb" || fail "qemu-run.sh --dump-dtb failed"
dtc -q -I dtb -O dts -o "$DTB_DIR/virt.dts" "$DTB_DIR/virt.dtb" ||
	fail "dtc cannot read QEMU's device tree"
# Move the cpu@3 node (dtc prints nodes under /cpus at two tabs) to just
# before cpu@0.
awk '
$0 == "\t\tcpu@3 {" { grab = 1 }
grab { moved = moved $0 "\n"; if ($0 == "\t\t};") grab = 0; next }
{ line[n++] = $0 }
END {
	for (i = 0; i < n; i++) {
		if (line[i] == "\t\tcpu@0 {")
			printf "%s\n", moved
		print line[i]
	}
}' "$DTB_DIR/virt.dts" >"$DTB_DIR/reordered.dts"
dtc -q -I dts -O dtb -o "$DTB_DIR/reordered.dtb" "$DTB_DIR/reordered.dts" ||
	fail "dtc cannot compile the reordered tree"
order=$(fdtget -l "$DTB_DIR/reordered.dtb" /cpus | grep '^cpu@' | tr '\n' ' ')
[ "$order" = "cpu@3 cpu@0 cpu@1 cpu@2 " ] ||
	fail "the reordered /cpus is '$order', want cpu@3 cpu@0 cpu@1 cpu@2"

# The guest side: guest/37-cpu-order.sh
boot reordered --dtb "$DTB_DIR/reordered.dtb" --add "$(trace_on_file 64 all)" \
	--add "$GUEST_DIR/37-cpu-order.sh" --cmd "sh /root/37-cpu-order.sh $HOTPLUG_CPU"

# The premise: Linux numbers the CPUs of this tree as LINUX_MAP says.
for m in $LINUX_MAP; do
	c=${m%%:*}
	[ "$(value "of$c")" = "cpu@$((${m#*:}))" ] ||
		fail "Linux's CPU $c is '$(value "of$c")', want cpu@$((${m#*:})) (is the tree reordered?)"
done
expect_no_line 'hyptrace: CPU [0-9]+ is MPIDR' "hyptrace.ko found the numbers differ"
expect_ok

before=$(grep -a '^@T ' "$BOOT_LOG" | sed 's/^@T //; s/\r$//')
after=$(grep -a '^@R ' "$BOOT_LOG" | sed 's/^@R //; s/\r$//')
[ -n "$before" ] || fail "the trace did not reach the console"

# on TRACE CPU 'line prefix' what: TRACE has that line on that CPU
on() {
	grep -a "^\[$(printf '%03d' "$2")\]" <<<"$1" | sed 's/^[^:]*: //' |
		grep -q -- "^$3" || fail "CPU $2: no '$3' in trace ($4)"
}

for c in 0 1 2 3; do
	on "$before" "$c" "selftest id=$((c + 100))" "the event written on CPU $c"
done

CPU_OFF=0x84000002
CPU_ON=0xc4000003
on "$before" "$HOTPLUG_CPU" "hyp_enter reason=smc func_id=$CPU_OFF" "its CPU_OFF"
on "$before" "$HOTPLUG_CPU" "hyp_exit reason=firmware func_id=$CPU_OFF" "its CPU_OFF relayed"
on "$before" "$HOTPLUG_CPU" "hyp_enter reason=psci func_id=$CPU_ON" "its entry after CPU_ON"
on "$before" "$HOTPLUG_CPU" "hyp_exit reason=psci func_id=$CPU_ON ret=0" "its return to Linux"
hp=$(printf '%03d' "$HOTPLUG_CPU")
grep -a "hyp_enter reason=smc func_id=$CPU_ON" <<<"$before" | grep -aqv "^\[$hp\]" ||
	fail "no CPU_ON for CPU $HOTPLUG_CPU from another CPU"
wrong=$(grep -a -E "reason=(smc func_id=$CPU_OFF|psci func_id=$CPU_ON)" <<<"$before" |
	grep -av "^\[$hp\]" | head -n 1 || true)
[ -z "$wrong" ] || fail "CPU $HOTPLUG_CPU's CPU_OFF or PSCI entry on another CPU: $wrong"

# The reset took CPU 1's events (id 101 among them) and nobody else's.
[ "$(value reset_cpu_lines)" = 0 ] ||
	fail "per_cpu/cpu$HOTPLUG_CPU/trace has $(value reset_cpu_lines) events after its reset"
! grep -aq "selftest id=$((HOTPLUG_CPU + 100))\$" <<<"$after" ||
	fail "the event written on CPU $HOTPLUG_CPU survived its CPU's reset"
for c in 0 1 2 3; do
	[ "$c" = "$HOTPLUG_CPU" ] && continue
	on "$after" "$c" "selftest id=$((c + 100))" "kept through CPU $HOTPLUG_CPU's reset"
	[ "$(grep -ac "^\[00$c\]" <<<"$after")" = "$(grep -ac "^\[00$c\]" <<<"$before")" ] ||
		fail "CPU $c lost events to CPU $HOTPLUG_CPU's reset"
done

# Each CPU's consuming read gave that CPU's events, and only them.
for c in 0 1 2 3; do
	got=$(value "pipe$c")
	want="$((c + 200)),"
	[ "$c" = "$HOTPLUG_CPU" ] || want="$((c + 100)),$want"
	[ "$got" = "$want" ] ||
		fail "per_cpu/cpu$c/trace_pipe gave selftest ids '$got', want '$want'"
done

# What the hypervisor and the module say: the same map.
expect_line "^hyptrace: CPU MPIDRs by Linux CPU number: $LINUX_MAP\$" \
	"the hypervisor's numbering"
expect_line 'hyptrace: CPUs 0-3: the hypervisor numbers them as Linux does' \
	"hyptrace.ko's MPIDR check"
expect_healthy
pass "boot CPU second in /cpus: Linux and the hypervisor both number the CPUs $LINUX_MAP; events, CPU $HOTPLUG_CPU's hotplug, its reset and per-CPU consuming reads on the right CPUs"
