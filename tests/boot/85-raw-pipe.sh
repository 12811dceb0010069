#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# per_cpu/cpuN/trace_pipe_raw as a program uses it (tests/guest/raw_check.c:
# O_NONBLOCK and EAGAIN, poll, whole pages in the kernel's format, reads in
# pieces, splice, a blocking read), and the one-consumer rule: with
# trace_pipe and a raw reader draining at the same time, every event
# reaches exactly one of them, trace_pipe shows nothing of the CPU the raw
# file owns, and the raw file of a CPU trace_pipe took answers EBUSY.
# shellcheck source=tests/boot/lib.sh
. "$(dirname "$0")/lib.sh"

RC=$HYPTRACE_BUILD/guest/raw_check
WE=$HYPTRACE_BUILD/guest/write_events
[ -x "$RC" ] && [ -x "$WE" ] || fail "raw_check or write_events not built: run make"

# shellcheck disable=SC2016 # expands in the guest
GUEST=$(trace_on_script 64 selftest)'
set +e
/root/raw_check 1 | sed "s/^/@check /"
cat trace_pipe > /tmp/tp.txt &
tp=$!
/root/write_events 1 1001 100 >/dev/null
/root/write_events 2 2001 100 >/dev/null
sleep 1
/root/raw_check drain 1 > /tmp/raw1.txt
echo "@drain_rc=$?"
sleep 1
kill $tp
cat per_cpu/cpu2/trace_pipe_raw > /dev/null 2>/tmp/busy.txt
echo "@busy_rc=$? $(cat /tmp/busy.txt)"
# "distinct/all" ids in [lo, hi] of a file of "... id=N" or "id N" lines
ids() { sed -n "s/.*id[= ]\([0-9]*\)$/\1/p" $1 | awk -v lo=$2 -v hi=$3 "\$1 >= lo && \$1 <= hi"; }
count() { echo "$(ids $1 $2 $3 | sort -u | wc -l)/$(ids $1 $2 $3 | wc -l)"; }
echo "@tp_cpu1=$(ids /tmp/tp.txt 101 1100 | wc -l)"
echo "@tp_cpu2=$(count /tmp/tp.txt 2001 2100)"
echo "@raw_cpu1=$(count /tmp/raw1.txt 1001 1100)"
echo "@raw_cpu2=$(ids /tmp/raw1.txt 2001 2100 | wc -l)"
sed -n "1p;\$p" /tmp/raw1.txt | sed "s/^/@raw_ends /"
echo 0 > tracing_on
echo 0 > trace
cat buffer_size_kb | sed "s/^/@after /"
'

boot smp4 --add "$RC" --add "$WE" --cmd "$GUEST"
expect_ok
checks=$(grep -ac '^@check ok: ' "$BOOT_LOG" || true)
! grep -aq '^@check FAIL' "$BOOT_LOG" || fail "raw_check: $(grep -a '^@check FAIL' "$BOOT_LOG" | head -n 1)"
[ "$checks" = 8 ] || fail "raw_check passed $checks of 8 checks"
[ "$(value drain_rc)" = 0 ] || fail "draining CPU 1's raw file failed"
[ "$(value raw_cpu1)" = 100/100 ] || fail "the raw reader got $(value raw_cpu1) (distinct/all) of CPU 1's 100 events"
[ "$(value raw_cpu2)" = 0 ] || fail "the raw reader of CPU 1 got CPU 2's events"
[ "$(value tp_cpu1)" = 0 ] || fail "trace_pipe showed $(value tp_cpu1) events of the raw reader's CPU 1"
[ "$(value tp_cpu2)" = 100/100 ] || fail "trace_pipe got $(value tp_cpu2) (distinct/all) of CPU 2's 100 events"
grep -aq '^@busy_rc=1 .*Device or resource busy' "$BOOT_LOG" ||
	fail "CPU 2's trace_pipe_raw did not answer EBUSY after trace_pipe took its pages: $(grep -a '^@busy_rc' "$BOOT_LOG")"
grep -aq '^@after [0-9]* (unloaded)' "$BOOT_LOG" || fail "the buffer stayed loaded after the reset"
expect_healthy
pass "raw_check: 8 checks; with trace_pipe and a raw reader together, CPU 1's 100 events went to the raw file once each, CPU 2's 100 to trace_pipe once each; CPU 2's raw file: EBUSY"
