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

# shellcheck disable=SC2016 # expands in the guest
GUEST=$(trace_on_script 128 selftest)'
probe() { insmod /lib/modules/hyptrace/hvc_probe.ko fid=0xc6000008 clock=1 "$@" && rmmod hvc_probe; dmesg | grep "hvc_probe: fid=" | tail -n 1 | sed "s/^.* ret=\([-0-9]*\) .*$/\1/"; }
if [ -f /lib/modules/hyptrace/hvc_probe.ko ]; then
	echo "@clock_back=$(probe offset_ns=-1000000000)"
	echo "@clock_leap=$(probe offset_ns=576460752303423488)"
fi
/root/clock_check '$N' "$PWD/write_event" > /tmp/stamps
echo 0 > tracing_on
# "id ts_us" from the trace, "id before_ns after_ns" from the program.
# Within the first second ts_us starts with 0, which busybox awk would
# read as octal: the zeros go first.
sed -n "s/^\[[0-9]*\][[:space:]]*\([0-9]*\)\.\([0-9]*\): selftest id=\([0-9]*\)$/\3 \1\2/p" trace > /tmp/events
echo "@written=$(wc -l < /tmp/stamps) @traced=$(wc -l < /tmp/events)"
awk "NR == FNR { v = \$2; sub(/^0+/, \"\", v); ts[\$1] = v + 0; next }
     { n++; us0 = int(\$2 / 1000); us1 = int(\$3 / 1000)
       if (!(\$1 in ts)) { missing++; next }
       t = ts[\$1]
       if (t < us0 || t > us1) { bad++; if (bad < 4) print \"@outside=\" \$1 \",\" us0 \",\" t \",\" us1 }
       if (t - us0 > worst) worst = t - us0 }
     END { print \"@checked=\" n \" @missing=\" missing + 0 \" @bad=\" bad + 0 \" @span_us=\" worst + 0 }" /tmp/events /tmp/stamps
'

boot smp4 --add "$PROG:/root/clock_check" --cmd "$GUEST"
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
