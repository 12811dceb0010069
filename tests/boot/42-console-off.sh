#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# With the PL011 disabled by Linux (pl011_off.ko clears UARTCR.UARTEN and
# TXE), the hypervisor's SYSTEM_OFF still prints nothing that can hang it:
# QEMU ends by itself. QEMU's PL011 sends what is written even when
# disabled (the SYSTEM_OFF line still appears) and never reports its FIFO
# full, so this guards the power path only, and passes on the unbounded
# console too; the bounded wait itself is proven by the `uart` host test
# (tests/uart/), against a fake PL011 whose FIFO never drains.
# shellcheck source=tests/boot/lib.sh
. "$(dirname "$0")/lib.sh"

boot console-off --cmd 'insmod /lib/modules/hyptrace/pl011_off.ko && poweroff -f'
[ "$BOOT_RC" != 124 ] || fail "QEMU did not end by itself (timeout)"
[[ $BOOT_MSG != *panic* ]] || fail "$BOOT_MSG"
expect_line 'pl011_off: UARTCR 0x[0-9a-f]+ -> 0x[0-9a-f]+: off' "the UART disabled"
expect_line 'reboot: Power down'
expect_healthy
pass "SYSTEM_OFF with the PL011 disabled by Linux: the machine powered off"
