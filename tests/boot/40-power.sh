#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The guest can power off and reboot the machine through the hypervisor's
# PSCI relay: QEMU ends by itself (no timeout), the kernel says what it
# asked for, and the hypervisor reports the call and its canary.
# shellcheck source=tests/boot/lib.sh
. "$(dirname "$0")/lib.sh"

# The run must end without the timeout and without a panic. The guest never
# prints its exit status (it goes down first), so qemu-run.sh says so.
expect_clean_end() {
	[ "$BOOT_RC" != 124 ] || fail "QEMU did not end by itself (timeout)"
	[[ $BOOT_MSG != *panic* ]] || fail "$BOOT_MSG"
}

boot poweroff --cmd 'poweroff'
expect_clean_end
expect_line 'reboot: Power down'
expect_line 'hyptrace: SYSTEM_OFF from CPU [0-9]+, memory canary intact'
expect_healthy

boot reboot --cmd 'reboot -f'
expect_clean_end
expect_line 'reboot: Restarting system'
expect_line 'hyptrace: SYSTEM_RESET from CPU [0-9]+, memory canary intact'
expect_no_line 'SYSTEM_OFF'
expect_healthy

# From a secondary CPU: the relay must not assume CPU 0. The kernel moves
# power-off to its reboot CPU first, so choose CPU 3 with reboot=s3.
boot poweroff-cpu3 --append reboot=s3 --cmd 'poweroff -f'
expect_clean_end
expect_line 'reboot: Power down'
expect_line 'hyptrace: SYSTEM_OFF from CPU 3, memory canary intact'
expect_healthy
pass "poweroff, reboot -f and poweroff -f from CPU 3 end QEMU through SYSTEM_OFF/SYSTEM_RESET"
