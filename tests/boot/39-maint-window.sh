#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The maintenance window (hyp/arch/maint_window.c, HYPTRACE_CALL_MAINT_WINDOW,
# the maint_window file of hyptrace.ko) on QEMU virt, 2 CPUs:
# - the file reads "off" on every CPU, refuses "61s" and "1x" (EINVAL),
#   and after "30s" shows the nanoseconds left on each;
# - maint_probe.ko's known storm on one CPU, interrupts off: DC CIVAC of
#   each line of a 16-page buffer, then TLBI VAALE1IS of each page: the
#   trace holds one maint_run for each on that CPU, with the count the
#   module made and the buffer's first and last line (page operand), and
#   the guest runs on (the operations were performed);
# - the hypercall refuses a bad operation and 60 s + 1 ns (INVALID);
# - "0" closes the window on every CPU ("off");
# - a window of 200 ms closes by itself: the guest works until the file
#   reads "off" on every CPU (a state, not a time), then the same storm
#   again gives no maint_run at all: the traps are off;
# on cortex-a57 (no FGT: HCR_EL2.TTLB, TPCP, TPU) and on max with the
# newest QEMU (FGT's HFGITR_EL2), there also recorded with hyptrace record
# and read by hyptrace report, stats, perfetto and stock trace-cmd; and
# on Debian's stock kernel (trixie-backports: hyptrace.ko's debugfs
# fallback files, maint_probe built for that kernel).
# Against the code before the window, hyptrace.ko has no maint_window file
# and the hypervisor no maint_run event: every case fails at its first check.
# shellcheck source=tests/boot/lib.sh
. "$(dirname "$0")/lib.sh"

SUITE=trixie-backports
PROBE=/lib/modules/hyptrace/maint_probe.ko

# The guest side: guest/39-maint-window.sh

# first KEY: the first "@KEY=value" (the storm after the deadline prints again)
first() { grep -a -o "@$1=[^ ]*" "$BOOT_LOG" | head -n 1 | cut -d= -f2 | tr -d '\r'; }

# probe KEY: KEY's value in maint_probe's first storm line
probe() {
	grep -a '^@cpu=' "$BOOT_LOG" | head -n 1 | tr -d '\r' | tr ' ' '\n' |
		sed -n "s/^@\{0,1\}$1=//p"
}

# lines_of TAG: the guest's "@TAG " lines, unprefixed
lines_of() { grep -a "^@$1 " "$BOOT_LOG" | sed "s/^@$1 //; s/\\r\$//" || true; }

# check_case CASE DIR RECORD [qemu-run.sh options]
check_case() {
	local case=$1 dir=$2 record=$3 cpu buf lines line last trace want got
	local dat ht
	shift 3
	boot "$case" --smp 2 "$@" --add "$(trace_on_file 1024 maint_run)" \
		--add "$GUEST_DIR/39-maint-window.sh" \
		--cmd "sh /root/39-maint-window.sh $PROBE $record"
	expect_ok
	[ "$(value alive)" = 42 ] || fail "the guest script did not finish"
	[ "$(value dir)" = "$dir" ] || fail "trace files at '$(value dir)', want $dir"
	[ "$(lines_of W0 | tr '\n' ' ')" = "cpu0 off cpu1 off " ] ||
		fail "maint_window before arming: '$(lines_of W0 | tr '\n' ' ')', want both off"
	[ "$(value too_long_rc)" != 0 ] && [ "$(value bad_rc)" != 0 ] ||
		fail "maint_window took 61s or 1x"
	expect_line "maint_window: '61s' is not a duration of at most 60s" "one line for the refusal"
	[ "$(value arm_rc)" = 0 ] || fail "echo 30s > maint_window failed"
	lines_of W1 | grep -Eq '^cpu0 [0-9]+ns$' && lines_of W1 | grep -Eq '^cpu1 [0-9]+ns$' ||
		fail "maint_window armed: '$(lines_of W1 | tr '\n' ' ')', want ns left on both CPUs"
	for kv in bad_op=-3 too_long=-3 query=0; do
		[ "$(value "${kv%%=*}")" = "${kv#*=}" ] ||
			fail "MAINT_WINDOW for ${kv%%=*} answered $(value "${kv%%=*}"), want ${kv#*=}"
	done
	[ "$(value close_rc)" = 0 ] && [ "$(lines_of W2 | tr '\n' ' ')" = "cpu0 off cpu1 off " ] ||
		fail "echo 0 > maint_window: '$(lines_of W2 | tr '\n' ' ')', want both off"
	[ "$(lines_of W3 | tr '\n' ' ')" = "cpu0 off cpu1 off " ] ||
		fail "a 200 ms window still open after $(value expiry_loops) rounds of work: '$(lines_of W3 | tr '\n' ' ')'"

	# The storm: one run of each, on the module's CPU, as it made them
	cpu=$(printf '[%03d]' "$(probe cpu)")
	buf=$(probe buf)
	lines=$(probe lines)
	line=$(probe line)
	[ -n "$buf" ] && [ "$lines" -gt 0 ] || fail "maint_probe did not run"
	last=$(printf '0x%x' $((buf + (lines - 1) * line)))
	trace=$(lines_of T)
	want="dc civac count=$lines first=$buf last=$last"
	got=$(awk -v c="$cpu" '$1 == c && $3 == "maint_run"' <<<"$trace" |
		sed -E 's/^.*maint_run //; s/ ns=[0-9]+$//' | grep -F -x "$want" || true)
	[ -n "$got" ] || fail "CPU $cpu: no maint_run '$want' in: $(grep -a 'dc civac' <<<"$trace" | head -n 5)"
	want="tlbi vaale1is count=16 first=$(probe tlbi_first) last=$(probe tlbi_last)"
	got=$(awk -v c="$cpu" '$1 == c && $3 == "maint_run"' <<<"$trace" |
		sed -E 's/^.*maint_run //; s/ ns=[0-9]+$//' | grep -F -x "$want" || true)
	[ -n "$got" ] || fail "CPU $cpu: no maint_run '$want' in: $(grep -a 'tlbi vaale1is' <<<"$trace" | head -n 5)"
	# After the deadline: the same storm, and nothing recorded
	[ "$(first before)" -gt 0 ] && [ "$(first before)" = "$(first after)" ] ||
		fail "maint_run events $(first before) before the storm after the deadline, $(first after) after"
	[ "$(grep -a -c '^@cpu=' "$BOOT_LOG")" = 2 ] || fail "the second storm did not report"
	# The format file as the guest gives it (tests/tools/fixtures)
	lines_of F >"$TEST_LOGS/$TEST_NAME-$case.format"
	grep -q '^print fmt: "%s count=%u first=0x%llx last=0x%llx ns=%llu", __print_symbolic(REC->op, ' \
		"$TEST_LOGS/$TEST_NAME-$case.format" || fail "maint_run's format file has no print fmt with the op names"
	expect_no_kernel_trouble
	expect_no_line 'hyptrace: CPU [0-9]+: trap from'

	[ -n "$record" ] || return 0
	[ "$(value rec_rc)" = 0 ] || fail "hyptrace record exited $(value rec_rc)"
	dat=$TEST_LOGS/$TEST_NAME-$case.dat
	guest_file maint.dat "$dat"
	ht=$HYPTRACE_BUILD/tools/native/hyptrace
	"$ht" report "$dat" >"$dat.report" 2>"$dat.err" ||
		fail "hyptrace report failed: $(head -n 1 "$dat.err")"
	grep -Eq "maint_run +dc civac count=$lines first=0x" "$dat.report" ||
		fail "hyptrace report shows no dc civac run of $lines (see $dat.report)"
	"$TC_REPORT" -i "$dat" >"$dat.txt" 2>"$dat.err" ||
		fail "trace-cmd report failed: $(head -n 2 "$dat.err")"
	grep -Eq "maint_run: +tlbi vaale1is count=16 first=0x" "$dat.txt" ||
		fail "trace-cmd report shows no tlbi vaale1is run of 16 (see $dat.txt)"
	"$ht" stats "$dat" >"$dat.stats" 2>"$dat.err" ||
		fail "hyptrace stats failed: $(head -n 1 "$dat.err")"
	grep -Eq '^  tlbi vaale1is +[0-9]+ +([0-9]+) ' "$dat.stats" &&
		awk '$1 == "dc" && $2 == "civac" && $4 >= '"$lines"' { ok = 1 } END { exit !ok }' "$dat.stats" ||
		fail "hyptrace stats: no maintenance rows for tlbi vaale1is and dc civac (see $dat.stats)"
	"$ht" perfetto -o "$dat.pftrace" "$dat" >/dev/null 2>"$dat.err" ||
		fail "hyptrace perfetto failed: $(head -n 1 "$dat.err")"
	[ "$(grep -a -c maint_run "$dat.pftrace")" -ge 1 ] ||
		fail "no maint_run event in the Perfetto trace"
}

check_case cortex-a57 /sys/kernel/tracing/remotes/hypervisor ""
qemu=$(bash "$HYPTRACE_TOP/scripts/setup-qemu-new.sh" 2>"$TEST_LOGS/$TEST_NAME-setup.log" | tail -n 1)
[ -x "$qemu" ] || fail "no newest QEMU: $(tail -n 2 "$TEST_LOGS/$TEST_NAME-setup.log")"
check_case cpu-max /sys/kernel/tracing/remotes/hypervisor record --qemu "$qemu" --cpu max
expect_healthy

# The debugfs fallback on Debian's stock kernel
log=$TEST_LOGS/$TEST_NAME
mkdir -p "$log"
vmlinuz=$(bash "$HYPTRACE_TOP/scripts/fetch-stock-kernel.sh" "$SUITE" 2>"$log/fetch.log" | tail -n 1) || true
[ -f "$vmlinuz" ] || fail "scripts/fetch-stock-kernel.sh: $(tail -n 1 "$log/fetch.log")"
ko=$(bash "$HYPTRACE_TOP/scripts/build-stock-module.sh" "$SUITE" 2>"$log/build.log" | tail -n 1) || true
[ -f "$ko" ] || fail "scripts/build-stock-module.sh: $(tail -n 1 "$log/build.log")"
stock_test_modules "$SUITE"
work=$(mktemp -d "${TMPDIR:-/tmp}/hyptrace-39m.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp "$ko" "$STOCK_TEST_KO_DIR/maint_probe.ko" "$work/"
check_case stock /sys/kernel/debug/hyptrace "" --kernel "$vmlinuz" --modules "$work"
expect_healthy
pass "maint_window on cortex-a57 (TTLB/TPCP/TPU), max (FGT) and Debian's stock kernel (debugfs): a DC CIVAC and a TLBI VAALE1IS storm each one maint_run with the module's count and buffer, performed; bad durations and arguments refused; closed by 0 and by its deadline, traps off after; report, stats, perfetto and trace-cmd read the event"
