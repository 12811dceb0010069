#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The hypervisor's timestamps are the host's CLOCK_BOOTTIME: for 1,000
# writes per CPU (tests/guest/clock_check.c), each selftest event's
# timestamp lies between CLOCK_BOOTTIME read just before and just after
# its write. The trace prints microseconds, so the check is at that
# resolution: floor(before) <= event <= floor(after), in us. Tracing is
# turned on right before the first write, so the first events check that
# no calibration pause is needed. Before them, the guest tries to move the
# hypervisor's clock 1 s backwards and 2^59 ns ahead (hvc_probe.ko, which a
# stock kernel run by 66-stock-tracing does not have): both are refused
# (CLOCK_STEP, -8), so the events after them are still stamped right.
# shellcheck source=tests/boot/lib.sh
. "$(dirname "$0")/lib.sh"

N=1000
PROG=$HYPTRACE_BUILD/guest/clock_check
[ -x "$PROG" ] || fail "$PROG missing: run make"

# The guest side: guest/82-trace-clock.sh
boot smp4 --add "$PROG:/root/clock_check" --add "$(trace_on_file 128 selftest)" \
	--add "$GUEST_DIR/82-trace-clock.sh" --cmd "sh /root/82-trace-clock.sh $N"
expect_ok

probed=", after a backwards and a leaping clock update were refused"
case " ${HYPTRACE_TEST_QEMU_ARGS:-} " in
*" --kernel "*) probed= ;;	# a stock kernel: no hvc_probe.ko
*)
	[ "$(value clock_back)" = -8 ] ||
		fail "a clock update 1 s backwards answered $(value clock_back), want -8 (CLOCK_STEP)"
	[ "$(value clock_leap)" = -8 ] ||
		fail "a clock update 2^59 ns ahead answered $(value clock_leap), want -8 (CLOCK_STEP)"
	;;
esac

want=$((4 * N))
[ "$(value written)" = "$want" ] || fail "clock_check wrote $(value written) events, want $want"
[ "$(value traced)" = "$want" ] || fail "the trace holds $(value traced) selftest events, want $want"
[ "$(value checked)" = "$want" ] || fail "checked $(value checked) events, want $want"
[ "$(value missing)" = 0 ] || fail "$(value missing) written events are not in the trace"
if [ "$(value bad)" != 0 ]; then
	fail "$(value bad) events stamped outside [before, after] (id,before_us,event_us,after_us: $(grep -a -o '@outside=[^ ]*' "$BOOT_LOG" | cut -d= -f2 | tr '\n' ' '))"
fi
expect_healthy
pass "$want events on 4 CPUs, each stamped within CLOCK_BOOTTIME [before, after] at 1 us resolution (largest before-to-event gap $(value span_us) us)$probed"
