#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Absurd buffer_size_kb values get the right errno and, when they reach the
# hypervisor, one dmesg line with exact figures:
# - 18446744073709551615 and 2^54 KiB do not fit in bytes: the
#   buffer_size_kb write itself fails with EINVAL (trace_remote's check);
# - 2^54 - 1 KiB (2^64 - 1024 bytes) is taken, and every tracing_on write
#   then fails with ENOMEM; dmesg has one line saying how many pages that
#   needs, the true count computed here with exact arithmetic (it wrapped
#   to a handful of pages before), not one line per write: two bursts of
#   writes, a second apart, give one line;
# - a sane size afterwards traces again.
# shellcheck source=tests/boot/lib.sh
. "$(dirname "$0")/lib.sh"

NR_CPUS=4
BURST=10
HUGE_KB=18014398509481983	# 2^54 - 1
CARVEOUT_PAGES=$((32 * 1024 * 1024 / 4096))

# The hypervisor's rule (shared/trace_desc.h), in exact integers: data
# pages per CPU for SIZE bytes at 4080 bytes a page (reader page and at
# least two more), the descriptor, then per CPU a meta page and the data.
want_pages=$(python3 -c "
size = $HUGE_KB * 1024
per_cpu = max(-(-size // 4080), 2) + 1
desc = 16 + $NR_CPUS * (16 + 8 * per_cpu)
print(-(-desc // 4096) + $NR_CPUS * (per_cpu + 1))")

# The guest side: guest/56-buffer-size.sh
boot smp4 --add "$GUEST_DIR/56-buffer-size.sh" \
	--cmd "sh /root/56-buffer-size.sh $HUGE_KB $BURST"
expect_ok
[ "$(value kb_max)" = Invalid_argument ] ||
	fail "buffer_size_kb 18446744073709551615: '$(value kb_max)', want EINVAL"
[ "$(value kb_2p54)" = Invalid_argument ] ||
	fail "buffer_size_kb 2^54: '$(value kb_2p54)', want EINVAL"
[ "$(value kb_huge)" = ok ] || fail "buffer_size_kb $HUGE_KB refused: '$(value kb_huge)'"
[ "$(value kb)" = "$HUGE_KB" ] || fail "buffer_size_kb reads '$(value kb)', want $HUGE_KB"
for b in burst1 burst2; do
	[ "$(value $b)" = Cannot_allocate_memory ] ||
		fail "tracing_on with $HUGE_KB KiB per CPU ($b): '$(value $b)', want ENOMEM"
done
want="hyptrace: buffer_size_kb $HUGE_KB needs $want_pages pages for $NR_CPUS CPUs and the carve-out holds $CARVEOUT_PAGES"
got=$(grep -a '^@M ' "$BOOT_LOG" | sed 's/^@M //; s/^\[[^]]*\] //; s/\r$//')
[ "$(value lines)" = 1 ] ||
	fail "$(value lines) dmesg lines for $((2 * BURST)) refused loads, want 1: $(head -n 3 <<<"$got")"
[ "$got" = "$want" ] || fail "dmesg says '$got', want '$want'"
[ "$(value sane)" = ok ] || fail "tracing with 7 KiB per CPU failed afterwards"
expect_healthy
pass "2^64-1 and 2^54 KiB: EINVAL; 2^54-1 KiB: ENOMEM for $((2 * BURST)) tracing_on writes and one dmesg line, $want_pages pages"
