#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Instructions per written event under callgrind, for each bench variant.
# usage: bench.sh <bench binary> <events> <build dir>
bin=$1
n=$2
out=$3
command -v valgrind > /dev/null || { echo "valgrind not installed"; exit 1; }

ir() {
	valgrind --tool=callgrind --callgrind-out-file="$out/callgrind.$1" \
		--toggle-collect="bench_$1" "$bin" "$1" "$n" > /dev/null 2>&1 ||
		{ echo "bench $1 failed" >&2; exit 1; }
	sed -n 's/^summary: \([0-9]*\).*/\1/p' "$out/callgrind.$1" | head -n 1
}

loop=$(ir loop)
printf '%-34s %12s %14s %16s\n' "variant ($n events)" "instructions" \
	"per event" "minus loop+clock"
for v in write8 write16 reserve8 reserve16; do
	total=$(ir $v)
	case $v in
	write8) what="rb_write, 8-byte payload";;
	write16) what="rb_write, 16-byte payload";;
	reserve8) what="rb_reserve+fill+rb_commit, 8 B";;
	reserve16) what="rb_reserve+fill+rb_commit, 16 B";;
	esac
	awk -v w="$what" -v t="$total" -v l="$loop" -v n="$n" 'BEGIN {
		printf "%-34s %12d %14.2f %16.2f\n", w, t, t / n, (t - l) / n }'
done
awk -v l="$loop" -v n="$n" 'BEGIN {
	printf "%-34s %12d %14.2f\n", "loop and clock only (baseline)", l, l / n }'
