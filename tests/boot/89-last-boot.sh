#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Crash survival: the trace of a boot that panicked, read on the next boot.
# Each case is one QEMU run with --reboots 1 and panic=1: QEMU keeps RAM
# across the reset and the guest script runs on both boots, telling them
# apart by remotes/hypervisor_last_boot.
#
#   first boot	a cold boot: no last boot (QUERY answers 0: no
#		hypervisor_last_boot directory, no "last boot" line). A known
#		run of N selftest events on each of CPUs 0-3 into a 64 KiB
#		buffer, all events on; then echo c > /proc/sysrq-trigger.
#   second boot	hypervisor_last_boot holds exactly that run, in order, then
#		the end: hyp_enter of HOST_PANIC (the module's panic notifier)
#		and of PSCI SYSTEM_RESET, the last events of all. Checked in
#		`trace` (twice: it does not consume), in trace_pipe (which
#		does), and with Debian's trace-cmd on `hyptrace record
#		--last-boot -o` brought out of the guest; writing 1 to its
#		tracing_on fails (EROFS); once trace_pipe has read it all,
#		release gives the pages back; the live buffer traces beside it.
#
#   clean	as above.
#   scribbled	before the panic, tests/modules/lastboot_scribble.ko breaks
#		the two oldest data pages of CPU 1 (a commit past the page, a
#		record past the commit): the next boot drops exactly those two
#		("last boot: K pages kept, 2 dropped"), keeps the rest, and
#		nothing crashes. CPU 1 shows fewer events, still in order; the
#		other CPUs all of theirs.
#   fallback	clean, on Debian's stock kernel without trace_remote (as
#		66-stock-tracing boots it): the same from the module's own
#		read-only files in /sys/kernel/debug/hyptrace/last_boot/.
# shellcheck source=tests/boot/lib.sh
. "$(dirname "$0")/lib.sh"

HT=$HYPTRACE_BUILD/tools/native/hyptrace
WE=$HYPTRACE_BUILD/guest/write_events
[ -x "$HT" ] && [ -x "$WE" ] || fail "hyptrace or write_events not built: run make"
N=300		# selftest events per CPU: several pages each, so SWAP is used
HOST_PANIC=0xc600000f	# HYPTRACE_CALL_HOST_PANIC, HYPTRACE_CALL(15)
SYSTEM_RESET=0x84000009

# The guest side: guest/89-last-boot.sh

REMOTE_LB=/sys/kernel/tracing/remotes/hypervisor_last_boot
FALLBACK_LB=/sys/kernel/debug/hyptrace/last_boot

# run_case NAME SCRIBBLE LAST_BOOT_DIR [qemu-run.sh options]: boot twice,
# bring the files out, check the second boot's own part of the console.
run_case() {
	local name=$1 scribble=$2 lbdir=$3 f
	shift 3
	boot "$name" --reboots 1 --add "$WE" "$@" --add "$GUEST_DIR/89-last-boot.sh" \
		--add "$GUEST_DIR/crash.sh" --cmd "sh /root/89-last-boot.sh $scribble $lbdir $N"
	expect_ok
	expect_line '^@boot=1' "a first boot"
	expect_line '^@boot=2' "a second boot after the panic"
	expect_no_line '^@no_panic' "sysrq c did not panic"
	[ "$(value first_lb_lines)" = 0 ] || fail "the cold boot says it has a last boot"
	expect_line "hyptrace: SYSTEM_RESET from CPU"
	dir=$TEST_LOGS/$TEST_NAME-$name-files
	rm -rf "$dir" && mkdir -p "$dir"
	for f in trace.txt pipe.txt trace-cpu2.txt lb.dat; do
		guest_file "$f" "$dir/$f"
	done
	[ -s "$dir/lb.dat" ] || fail "lb.dat is empty"
	# The second boot alone: the first one oopsed on purpose
	awk 'seen; /hyptrace: SYSTEM_RESET from CPU/ {seen = 1}' "$BOOT_LOG" >"$dir/boot2.log"
	BOOT_LOG=$dir/boot2.log
	expect_healthy
}

# ids CPU FILE: the selftest ids of CPU in a trace_remote text (trace,
# trace_pipe) or trace-cmd report, in file order
ids() {
	awk -v c="$1" '
		$1 == "[00" c "]" && $3 == "selftest" {sub("id=", "", $4); print $4}
		$2 == "[00" c "]" && $4 == "selftest:" {sub("id=", "", $5); print $5}' "$2"
}

# check_common DIR remote|fallback: what every case must show
check_common() {
	local d=$1 f
	[ "$(value tracing_on)" = 0 ] || fail "last boot's tracing_on reads $(value tracing_on)"
	[ "$(value on_rc)" != 0 ] || fail "writing 1 to the last boot's tracing_on succeeded"
	grep -aq '^@on_err .*Read-only file system' "$BOOT_LOG" ||
		fail "writing 1 to tracing_on did not fail with EROFS: $(grep -a '^@on_err' "$BOOT_LOG")"
	[ "$(value tracing_on_after)" = 0 ] || fail "tracing_on reads $(value tracing_on_after) after the write"
	[ "$(value trace_again)" = same ] || fail "reading trace twice gave two texts (it consumed?)"
	[ "$(value rec_rc)" = 0 ] || fail "hyptrace record --last-boot exited $(value rec_rc)"
	# trace_remote keeps a buffer loaded until trace_pipe has read it all
	[ "$2" != remote ] || grep -aq '^@after_pipe=.*(unloaded)' "$BOOT_LOG" ||
		fail "trace_pipe read to the end did not unload it: $(grep -a '^@after_pipe' "$BOOT_LOG")"
	[ "$(value release_rc)" = 0 ] && [ "$(value released)" = 1 ] ||
		fail "release: rc $(value release_rc), reads $(value released)"
	[ "$(value again_rc)" = 1 ] && grep -aq '^@again hyptrace record: no last boot' "$BOOT_LOG" ||
		fail "record --last-boot after the release: rc $(value again_rc), $(grep -a '^@again' "$BOOT_LOG" | head -n 1)"
	[ "$(value live)" = 1 ] || fail "the live buffer does not trace beside the last boot's"
	"$TC_REPORT" -i "$d/lb.dat" >"$d/report.txt" 2>"$d/report.err" ||
		fail "trace-cmd report failed: $(head -n 2 "$d/report.err")"
	[ ! -s "$d/report.err" ] || fail "trace-cmd report warned: $(head -n 2 "$d/report.err")"
	# The three readers agree, CPU by CPU, event by event
	for c in 0 1 2 3; do
		ids "$c" "$d/report.txt" >"$d/ids-$c.report"
		ids "$c" "$d/trace.txt" >"$d/ids-$c.trace"
		ids "$c" "$d/pipe.txt" >"$d/ids-$c.pipe"
		for f in trace pipe; do
			cmp -s "$d/ids-$c.report" "$d/ids-$c.$f" ||
				fail "CPU $c: $f and trace-cmd report show different selftest ids"
		done
		# in order, no repeats
		sort -n -c "$d/ids-$c.report" 2>/dev/null && [ -z "$(uniq -d "$d/ids-$c.report")" ] ||
			fail "CPU $c: the selftest ids are out of order or repeated"
	done
	ids 2 "$d/trace-cpu2.txt" | cmp -s - "$d/ids-2.report" ||
		fail "per_cpu/cpu2/trace differs from trace-cmd report"
	# trace and trace_pipe show every event, as trace-cmd does
	local nt np nr
	nt=$(grep -c '^\[' "$d/trace.txt")
	np=$(grep -c '^\[' "$d/pipe.txt")
	nr=$(awk '$2 ~ /^\[[0-9]+\]$/ && $4 ~ /:$/ {n++} END {print n + 0}' "$d/report.txt")
	[ "$nt" = "$np" ] && [ "$nt" = "$nr" ] && [ "$nt" -gt 0 ] ||
		fail "events: trace $nt, trace_pipe $np, trace-cmd report $nr"
}

# check_ids CPU FIRST COUNT: exactly FIRST..FIRST+COUNT-1
check_ids() {
	local got
	got=$(awk 'NR == 1 {a = $1} {n++; b = $1} END {print n + 0, a, b}' "$dir/ids-$1.report")
	[ "$got" = "$3 $2 $(($2 + $3 - 1))" ] ||
		fail "CPU $1: $got (count, first, last) selftest events, want $3 $2 $(($2 + $3 - 1))"
}

# --- clean: everything, then the panic and the reset last ---
run_case clean 0 "$REMOTE_LB"
check_common "$dir" remote
for c in 0 1 2 3; do check_ids "$c" $((c * 100000 + 1)) "$N"; done
expect_line '^@dmesg last boot: [0-9]+ pages kept, 0 dropped' "the module's last-boot line"
kept=$(sed -n 's/^@dmesg last boot: \([0-9]*\) pages kept.*/\1/p' "$BOOT_LOG" | head -n 1)
[ "$kept" -ge 16 ] || fail "only $kept pages kept for $((4 * N)) selftest events: SWAP not exercised"
# hyp_enter lines in time order: HOST_PANIC, then SYSTEM_RESET, last of all
last=$(awk '$4 == "hyp_enter:" {print $6}' "$dir/report.txt" | tail -n 2 | tr '\n' ' ')
[ "$last" = "func_id=$HOST_PANIC func_id=$SYSTEM_RESET " ] ||
	fail "the last hyp_enters are '$last', want HOST_PANIC ($HOST_PANIC) then SYSTEM_RESET ($SYSTEM_RESET)"
panic_line=$(grep -n "hyp_enter: .*func_id=$HOST_PANIC" "$dir/report.txt" | cut -d: -f1)
last_selftest=$(grep -n 'selftest:' "$dir/report.txt" | tail -n 1 | cut -d: -f1)
[ "$panic_line" -gt "$last_selftest" ] || fail "HOST_PANIC is not after the last selftest event"
clean_summary="$((4 * N)) selftest events on 4 CPUs in order in trace, trace_pipe and trace-cmd report, then HOST_PANIC and SYSTEM_RESET; $kept pages kept"

# --- scribbled: two pages of CPU 1 dropped, the rest kept ---
run_case scribbled 1 "$REMOTE_LB"
grep -aq '^@scribble_rc=0' "$TEST_LOGS/$TEST_NAME-scribbled.log" ||
	fail "lastboot_scribble.ko failed: $(grep -a 'lastboot_scribble' "$TEST_LOGS/$TEST_NAME-scribbled.log" | tail -n 1)"
check_common "$dir" remote
expect_line '^@dmesg last boot: [0-9]+ pages kept, 2 dropped' "2 pages dropped"
for c in 0 2 3; do check_ids "$c" $((c * 100000 + 1)) "$N"; done
n1=$(wc -l <"$dir/ids-1.report")
[ "$n1" -gt 0 ] && [ "$n1" -lt "$N" ] || fail "CPU 1 kept $n1 of $N selftest events after two pages were broken"
last1=$(tail -n 1 "$dir/ids-1.report")
[ "$last1" = $((100000 + N)) ] || fail "CPU 1's newest event $last1 is gone, want $((100000 + N))"

scribbled_summary="scribbled: 2 pages dropped, CPU 1 kept $n1 of $N in order, the others all"

# --- fallback: Debian's stock kernel, without trace_remote, as 66 boots it ---
suite=trixie-backports
vmlinuz=$(bash "$HYPTRACE_TOP/scripts/fetch-stock-kernel.sh" "$suite" \
	2>"$TEST_LOGS/$TEST_NAME-fetch.log" | tail -n 1) || true
[ -f "$vmlinuz" ] ||
	fail "$suite: scripts/fetch-stock-kernel.sh: $(tail -n 1 "$TEST_LOGS/$TEST_NAME-fetch.log")"
ko=$(bash "$HYPTRACE_TOP/scripts/build-stock-module.sh" "$suite" \
	-o "$HYPTRACE_BUILD/stock/$TEST_NAME" 2>"$TEST_LOGS/$TEST_NAME-build.log" | tail -n 1) || true
[ -f "$ko" ] ||
	fail "$suite: scripts/build-stock-module.sh: $(tail -n 1 "$TEST_LOGS/$TEST_NAME-build.log")"
BOOT_TIMEOUT=600 run_case fallback 0 "$FALLBACK_LB" --kernel "$vmlinuz" --modules "$ko"
check_common "$dir" fallback
expect_line "hyptrace: version $(project_version_re), hypervisor ABI .*this kernel has no trace_remote" \
	"the fallback front end, with the project's version"
for c in 0 1 2 3; do check_ids "$c" $((c * 100000 + 1)) "$N"; done
expect_line '^@dmesg last boot: [0-9]+ pages kept, 0 dropped' "the module's last-boot line"

pass "$clean_summary; $scribbled_summary; the same in the fallback (debugfs) on Debian's $suite kernel"
