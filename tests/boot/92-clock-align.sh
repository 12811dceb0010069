#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Lining the guest's trace up with this machine's clock (issue 14 part 4):
# QEMU with qemu-run.sh --virtio-trace, `hyptrace agent` in the guest,
# `hyptrace listen --virtio DIR --align boot` here, three rounds started
# and stopped by a driver (tests/boot/clock-align.py) that notes this
# machine's CLOCK_BOOTTIME around every order. The listener measures the
# offset from its "clock" exchanges and writes it into the trace.dat
# (trace-cmd's OFFSET option). Stock trace-cmd report then shows the
# events on this machine's boot clock, and they must fall where cause and
# effect put them: every event of a round between the start order and the
# "stopped" message; the first (a hypercall hyptrace.ko makes as tracing
# starts) before the "started" message came back; the last (the disabling
# hypercall's hyp_enter) after the stop order left. A wrong offset, a
# wrong sign or a file that ignores it fails by seconds: the guest booted
# long after this machine. The narrowest start window is the alignment
# this proves independently; the test prints it beside the listener's
# own bound.
# shellcheck source=tests/boot/lib.sh
. "$(dirname "$0")/lib.sh"

HT=$HYPTRACE_BUILD/tools/native/hyptrace
WE=$HYPTRACE_BUILD/guest/write_events
[ -x "$HT" ] && [ -x "$WE" ] || fail "hyptrace or write_events not built: run make"
command -v trace-cmd >/dev/null || fail "trace-cmd not installed"
command -v python3 >/dev/null || fail "python3 not installed"
N=200		# selftest events per CPU per round

dir=$TEST_LOGS/$TEST_NAME-files
vt=$dir/vt
rm -rf "$dir" && mkdir -p "$dir"
# The guest side: guest/92-clock-align.sh, with guest/agent.sh
BOOT_TIMEOUT=400 boot_bg "$dir" smp4 --virtio-trace "$vt" --add "$WE" \
	--add "$GUEST_DIR/agent.sh" --add "$GUEST_DIR/92-clock-align.sh" \
	--cmd "sh /root/92-clock-align.sh $N"
wait_log '^@agent ready' 300
# The driver runs the listener itself: it must see its lines as they come
python3 "$(dirname "$0")/clock-align.py" drive "$HT" "$vt" "$dir/vt.dat" \
	"$BOOT_LOG" 3 "$dir/listen.log" >"$dir/windows" 2>"$dir/driver.err" ||
	fail "driving the listener: $(tail -n 2 "$dir/driver.err")"
boot_bg_wait
expect_ok
[ "$(value agent_rc)" = 0 ] || fail "the agent exited $(value agent_rc)"
expect_healthy

"$TC_REPORT" -t -i "$dir/vt.dat" >"$dir/vt.txt" 2>"$dir/vt.err" ||
	fail "trace-cmd report failed: $(head -n 2 "$dir/vt.err")"
[ ! -s "$dir/vt.err" ] || fail "trace-cmd report warned: $(head -n 2 "$dir/vt.err")"
verdict=$(python3 "$(dirname "$0")/clock-align.py" check "$dir/windows" \
	"$dir/listen.log" "$dir/vt.txt" "$N") || fail "$verdict"
pass "$verdict"
