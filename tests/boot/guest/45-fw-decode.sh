#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of 45-fw-decode.sh's boot with idle states: hyptrace
# record of the firmware events while cpuidle tries each idle state, CPU 3
# goes off and on and fwcall_probe.ko decode=1 calls firmware; the
# recording sent out in base64 between "@B64 fw.dat" and "@END fw.dat".
#
# usage: 45-fw-decode.sh           the recording, of "45-fw-decode.sh work"
#        45-fw-decode.sh work      what is recorded
set +e
S=/sys/devices/system/cpu

# idle STATES: of the two idle states, only STATES enabled, on every CPU
idle() {
	for d in "$S"/cpu[0-9]*/cpuidle/state[12]; do
		case " $* " in *" ${d##*state} "*) echo 0;; *) echo 1;; esac > "$d/disable"
	done
}

# tries STATE: cpuidle tries of STATE, all CPUs (QEMU refuses both
# states: each try counts as "rejected")
tries() {
	cat $S/cpu[0-9]*/cpuidle/state"$1"/rejected | awk '{n += $1} END {print n}'
}

# The retention state, then both (the ladder governor climbs one state at
# a time), until cpuidle has tried each during the recording
work() {
	n0=$(tries 1)
	idle 1
	while [ "$(tries 1)" = "$n0" ]; do sleep 0.05; done
	echo "@idle1=$(($(tries 1) - n0))"
	n0=$(tries 2)
	idle 1 2
	while [ "$(tries 2)" = "$n0" ]; do sleep 0.05; done
	echo "@idle2=$(($(tries 2) - n0))"
	idle
	echo 0 > $S/cpu3/online
	echo 1 > $S/cpu3/online
	insmod /lib/modules/hyptrace/fwcall_probe.ko decode=1
	echo "@insmod=$?"
}

if [ "${1:-}" = work ]; then
	work
	exit 0
fi
idle
hyptrace record -o /tmp/fw.dat -b 256 -e fw_psci -e fw_arch -e fw_trng \
	-e fw_workaround -e fw_scmi -e fw_optee -- sh "$0" work
echo "@rec_rc=$?"
echo "@B64 fw.dat"; base64 /tmp/fw.dat 2> /dev/null || true; echo "@END fw.dat $(wc -c 2> /dev/null < /tmp/fw.dat || echo none)"
