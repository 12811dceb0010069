#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Early capture: with hyptrace.early=hyp_enter+hyp_exit,size=64 on the
# kernel command line the hypervisor records from its own boot, before
# Linux runs, and hyptrace.ko adopts that buffer when it loads. The first
# read of `trace` must then hold the boot CPU's first SMCCC call (PSCI
# PSCI_VERSION) and every secondary's PSCI entry (hyp_enter reason=psci
# CPU_ON), each on its own CPU, the secondaries in the order Linux starts
# them, all before the module's own first call (its SMCCC UID HVC), with
# every CPU's timestamps monotonic and none later than the module's first
# call, itself no later than CLOCK_BOOTTIME (/proc/uptime) when the test
# reads; hyptrace record --keep records from the same first event (stock
# trace-cmd report). tracing_on reads 0 (early capture ends at adoption), the two
# events read enabled, selftest not. A boot whose 4 KiB early buffer fills
# before the module loads reports the loss in trace_pipe. A boot with a bad value gets
# one console line and boots on without early capture: no buffer loaded.
# shellcheck source=tests/boot/lib.sh
. "$(dirname "$0")/lib.sh"

# The guest sides: guest/87-early.sh, guest/87-early-full.sh
boot early --append 'hyptrace.early=hyp_enter+hyp_exit,size=64' \
	--add "$GUEST_DIR/87-early.sh" --cmd "sh /root/87-early.sh"
expect_ok
expect_line '^hyptrace: early capture of hyp_enter hyp_exit, 64 KiB per CPU, from [0-9]+ ns after hypervisor entry' \
	"the hypervisor's early capture line"
expect_line 'hyptrace: early buffer adopted: stamps moved by -?[0-9]+ ns onto CLOCK_BOOTTIME' \
	"hyptrace.ko adopting the early buffer"
[ "$(value tracing_on)" = 0 ] || fail "tracing_on reads $(value tracing_on) after the adoption, want 0"
[ "$(value enter_on)" = 1 ] || fail "hyp_enter's enable reads $(value enter_on), want 1 (on from boot)"
[ "$(value selftest_on)" = 0 ] || fail "selftest's enable reads $(value selftest_on), want 0 (not asked for)"
[ "$(value size)" = "(loaded)" ] || fail "buffer_size_kb says $(value size), want (loaded)"

# The trace as the guest read it: "cpu us event rest", in file order, us
# the timestamp in microseconds.
TRACE=$TEST_LOGS/$TEST_NAME-trace.txt
grep -a '^@T ' "$BOOT_LOG" | sed 's/^@T //; s/\r$//' >"$TRACE"
[ "$(wc -l <"$TRACE")" = "$(value lines)" ] ||
	fail "the log holds $(wc -l <"$TRACE") trace lines, the guest read $(value lines)"
uptime_us=$(awk -v u="$(value uptime)" 'BEGIN { printf "%d", u * 1000000 }')

# shellcheck disable=SC2016
verdict=$(awk -v uptime_us="$uptime_us" '
	$1 ~ /^\[[0-9]+\]$/ && $2 ~ /^[0-9]+\.[0-9]+:$/ {
		n++
		cpu = substr($1, 2, length($1) - 2) + 0
		split(substr($2, 1, length($2) - 1), t, ".")
		us = t[1] * 1000000 + t[2]; ev = $3
		rest = ""
		for (i = 4; i <= NF; i++)
			rest = rest (i > 4 ? " " : "") $i
		if (cpu in last && us < last[cpu])
			back = back (back == "" ? "" : ",") cpu "@" n
		last[cpu] = us
		if (n > 1 && us < prev_us)
			unsorted++
		prev_us = us
		if (!module_us && ev == "hyp_enter" && rest ~ /reason=hvc func_id=0x8600ff01$/) {
			module_us = us; module_line = n
		}
		if (!module_us && cpu == 0 && !boot_found &&
		    ev == "hyp_enter" && rest ~ /reason=smc func_id=0x84000000$/) {
			boot_us = us; boot_found = 1
		}
		if (!module_us && ev == "hyp_enter" && rest ~ /reason=psci func_id=0xc4000003$/ && !(cpu in psci)) {
			psci[cpu] = us; order = order (order == "" ? "" : ",") cpu
		}
		if (!module_us && us > max_early)
			max_early = us
		next
	}
	{ junk++ }
	END {
		printf "n=%d junk=%d module_line=%d module_us=%d boot_found=%d boot_us=%d order=%s back=%s unsorted=%d max_early=%d uptime_us=%d",
		       n, junk, module_line, module_us, boot_found, boot_us, order, back, unsorted, max_early, uptime_us
		printf " psci1=%d psci2=%d psci3=%d\n", psci[1], psci[2], psci[3]
	}' "$TRACE")
info "trace: $verdict"
get() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<" $verdict"; }

[ "$(get junk)" = 0 ] || fail "$(get junk) trace lines are not events (see $TRACE)"
[ "$(get module_line)" != 0 ] ||
	fail "no hyp_enter reason=hvc func_id=0x8600ff01 (the module's first call, its SMCCC UID) in the first trace read (see $TRACE)"
[ "$(get boot_found)" = 1 ] ||
	fail "the boot CPU's PSCI_VERSION (hyp_enter reason=smc func_id=0x84000000 on CPU 0) is not before the module's first call (see $TRACE)"
[ "$(get order)" = "1,2,3" ] ||
	fail "secondaries' PSCI CPU_ON entries before the module's first call, by time: '$(get order)', want '1,2,3' (see $TRACE)"
[ -z "$(get back)" ] || fail "timestamps go backwards on a CPU (cpu@line:$(get back))"
[ "$(get unsorted)" = 0 ] || fail "$(get unsorted) trace lines are earlier than the line before"
p1=$(get psci1) p2=$(get psci2) p3=$(get psci3) mod=$(get module_us)
[ "$p1" -lt "$p2" ] && [ "$p2" -lt "$p3" ] ||
	fail "the secondaries' PSCI entries are stamped $p1, $p2, $p3 us: not in CPU order"
[ "$(get max_early)" -le "$mod" ] ||
	fail "an early event is stamped $(get max_early) us, after the module's first call at $mod us"
[ "$mod" -le "$uptime_us" ] ||
	fail "the module's first call is stamped $mod us, after CLOCK_BOOTTIME $uptime_us us read later"
expect_healthy
# The recording: stock trace-cmd report shows the same boot, from PSCI_VERSION
[ "$(value rec_rc)" = 0 ] ||
	fail "hyptrace record --keep exited $(value rec_rc): $(grep -a '^@rec ' "$BOOT_LOG" | head -n 2)"
DAT=$TEST_LOGS/$TEST_NAME-early.dat
guest_file early.dat "$DAT"
"$TC_REPORT" -i "$DAT" >"$DAT.txt" 2>"$DAT.err" ||
	fail "trace-cmd report of hyptrace record --keep's file failed: $(head -n 2 "$DAT.err")"
first=$(grep -m 1 'hyp_enter:' "$DAT.txt" || true)
[[ $first == *'[000]'*'reason=smc func_id=0x84000000'* ]] ||
	fail "hyptrace record --keep: the first hyp_enter is '$first', want CPU 0's PSCI_VERSION (see $DAT.txt)"
for c in 1 2 3; do
	grep -q "\[00$c\].*hyp_enter:.*reason=psci func_id=0xc4000003" "$DAT.txt" ||
		fail "hyptrace record --keep: no PSCI CPU_ON entry of CPU $c (see $DAT.txt)"
done
good="$(get n) events in the first trace read, $(grep -c 'hyp_e' "$DAT.txt") in hyptrace record --keep's trace.dat from the same PSCI_VERSION on; PSCI_VERSION on CPU 0 at $(get boot_us) us, CPU_ON entries of CPUs 1, 2, 3 at $p1, $p2, $p3 us, the module's first call at $mod us, uptime $uptime_us us"

# A full early buffer: 4 KiB per CPU (two ring pages) and 3,000 null
# hypercalls on CPU 1 before hyptrace.ko loads. The loss is reported as
# usual: trace_pipe's [LOST n EVENTS] plus the events read make at least
# the 6,000 the burst wrote, and the newest survive (a flight recorder).
BENCH_KO=$HYPTRACE_TOP/bench/module/bench_hvc.ko
[ -f "$BENCH_KO" ] || fail "$BENCH_KO missing: make bench-module"
boot full --append 'hyptrace.early=hyp_enter+hyp_exit,size=4 hyptrace-guest.no-module' \
	--add "$BENCH_KO:/root/bench_hvc.ko" --add "$GUEST_DIR/87-early-full.sh" \
	--cmd "sh /root/87-early-full.sh"
expect_ok
lost=$(value lost) read=$(value read)
info "full early buffer, CPU 1: $read events read, $lost reported lost, last $(value last)"
[ "$lost" -gt 0 ] || fail "a full early buffer reported no loss ($read events read)"
[ $((lost + read)) -ge 6000 ] ||
	fail "lost $lost + read $read < the 6,000 events the burst wrote on CPU 1"
[[ "$(value last)" =~ ^hyp_exit:?_reason=hvc_func_id=0xc6000000_ret=0$ ]] ||
	fail "the newest event on CPU 1 is '$(value last)', want the burst's last hyp_exit"
good+="; a full 4 KiB early buffer: $lost lost + $read read on CPU 1"

boot bad --append 'hyptrace.early=hyp_enter+hyp_bogus' \
	--add "$GUEST_DIR/87-early-bad.sh" --cmd "sh /root/87-early-bad.sh"
expect_ok
expect_line "^hyptrace: hyptrace.early=unknown event 'hyp_bogus' .*: no early capture" \
	"one line refusing the bad value"
[ "$(count_lines '^hyptrace: early capture of')" = 0 ] || fail "early capture started despite a bad value"
[ "$(value size)" = "(unloaded)" ] || fail "buffer_size_kb says $(value size) after a refused hyptrace.early, want (unloaded)"
[ "$(value on)" = 0 ] || fail "hyp_enter reads enabled after a refused hyptrace.early"
expect_healthy
pass "$good; a bad value refused in one line, no early capture"
