#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Loss accounting is exact: K selftest events written from one CPU into the
# smallest buffer (7 KiB: two ring pages and the reader page) overflow it.
# Reading trace_pipe, the [LOST n EVENTS] counts plus the events read make
# K exactly, the ids read run without a gap, and they are the last ones
# written (a flight recorder keeps the newest).
# shellcheck source=tests/boot/lib.sh
. "$(dirname "$0")/lib.sh"

K=1000
CPU=1

# The guest side: guest/81-trace-loss.sh
boot smp4 --add "$(trace_on_file 7 selftest)" \
	--add "$GUEST_DIR/81-trace-loss.sh" --cmd "sh /root/81-trace-loss.sh $K $CPU"
expect_ok

pipe=$(grep -a '^@P ' "$BOOT_LOG" | sed 's/^@P //; s/\r$//')
[ -n "$pipe" ] || fail "trace_pipe gave nothing"
lost=$(sed -n 's/^CPU:[0-9]* \[LOST \([0-9]*\) EVENTS\]$/\1/p' <<<"$pipe" |
       awk '{ s += $1 } END { print s + 0 }')
ids=$(sed -n 's/^\[[0-9]*\].*: selftest id=\([0-9]*\)$/\1/p' <<<"$pipe")
read_n=$(grep -c . <<<"$ids")
first=$(head -n 1 <<<"$ids")
last=$(tail -n 1 <<<"$ids")
info "read $read_n events (ids $first..$last), lost $lost"

[ "$lost" -gt 0 ] || fail "no [LOST n EVENTS] line, though $K events cannot fit in 7 KiB"
[ $((lost + read_n)) = "$K" ] || fail "lost $lost + read $read_n = $((lost + read_n)), want $K"
[ "$last" = "$K" ] || fail "the last id read is $last, want $K (the newest event)"
[ "$first" = $((lost + 1)) ] || fail "the first id read is $first, want lost + 1 = $((lost + 1))"
[ "$(awk 'NR > 1 && $1 != prev + 1 { bad = 1 } { prev = $1 } END { print bad + 0 }' <<<"$ids")" = 0 ] ||
	fail "ids read have a gap or a repeat"
grep -q '^\[00'"$CPU"'\]' <<<"$pipe" || fail "events not on CPU $CPU"
expect_healthy
pass "$K written on CPU $CPU: $read_n read (ids $first..$K, no gap) + $lost reported lost = $K"
