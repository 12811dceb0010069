#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The newest Arm CPUs QEMU models, on the newest QEMU Debian packages (11.1
# from trixie-backports, run from a cached Debian 13 root: scripts/
# setup-qemu-new.sh): for each model, Linux starts all CPUs at EL1 under
# the hypervisor, CPUs 1-3 go off and on, and a recording holds events
# from all four CPUs. -cpu max there has FEAT_S1PIE, GCS, SME, FPMR, MOPS:
# each must reach Linux untrapped.
# shellcheck source=tests/boot/lib.sh
. "$(dirname "$0")/lib.sh"

MODELS=(max neoverse-n2 neoverse-v1 cortex-a710 cortex-a76 cortex-a72 cortex-a57)
WE=$HYPTRACE_BUILD/guest/write_events
[ -x "$WE" ] || fail "write_events not built: run make"

qemu=$(bash "$HYPTRACE_TOP/scripts/setup-qemu-new.sh" 2>"$TEST_LOGS/$TEST_NAME-setup.log" | tail -n 1)
[ -x "$qemu" ] || fail "no newest QEMU: $(tail -n 2 "$TEST_LOGS/$TEST_NAME-setup.log")"
version=$("$qemu" --version | sed -n 's/^QEMU emulator version \([^ ]*\).*/\1/p')
info "QEMU $version: $qemu"

# The guest side: guest/15-newest-qemu.sh
for model in "${MODELS[@]}"; do
	boot "$model" --qemu "$qemu" --cpu "$model" --add "$WE" \
		--add "$GUEST_DIR/15-newest-qemu.sh" --cmd "sh /root/15-newest-qemu.sh"
	expect_ok
	expect_healthy
	[ "$(value online)" = 0-3 ] || fail "CPUs online at the end: $(value online)"
	for c in 0 1 2 3; do
		grep -aq "^@sum $c 10 0 0 10 " "$BOOT_LOG" ||
			fail "CPU $c did not record its 10 events: $(grep -a "^@sum $c " "$BOOT_LOG")"
	done
done
pass "QEMU $version: ${MODELS[*]}: all CPUs at EL1, hotplug of CPUs 1-3, 10 events recorded on each"
