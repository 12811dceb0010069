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

# The guest side: guest/85-raw-pipe.sh
boot smp4 --add "$RC" --add "$WE" --add "$(trace_on_file 64 selftest)" \
	--add "$GUEST_DIR/85-raw-pipe.sh" --cmd "sh /root/85-raw-pipe.sh"
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
