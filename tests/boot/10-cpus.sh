#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Every CPU comes up at EL1 under the hypervisor: the default machine, the
# "max" CPU model (SVE, VHE, 52-bit PA), one CPU, and the kernel's maximum
# of eight. Linux itself checks the boot mode of all CPUs and says so.
# shellcheck source=tests/boot/lib.sh
. "$(dirname "$0")/lib.sh"

check_cpus() {
	local case=$1 n=$2
	shift 2
	# shellcheck disable=SC2016 # expands in the guest
	boot "$case" "$@" --cmd 'echo "@online=$(cat /sys/devices/system/cpu/online)"'
	expect_ok
	expect_line "SMP: Total of $n processors activated"
	[ "$(value online)" = "$(cpu_list "$n")" ] ||
		fail "online CPUs '$(value online)', want '$(cpu_list "$n")'"
	expect_healthy
}

check_cpus default 4
check_cpus cpu-max 4 --cpu max
check_cpus smp1 1 --smp 1
check_cpus smp8 8 --smp 8
pass "4 machines (default, --cpu max, --smp 1, --smp 8): all CPUs online, all at EL1"
