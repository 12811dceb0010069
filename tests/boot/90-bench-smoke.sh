#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench works: its smoke mode boots, runs every benchmark row with few
# iterations and writes the table. Nothing here is about speed (the figures
# of a smoke run are rough); it checks that every row got a figure, on our
# side and, where the row has one, on the kernel test remote's.
# shellcheck source=tests/boot/lib.sh
. "$(dirname "$0")/lib.sh"

BOOT_CASE=smoke
out=$HYPTRACE_BUILD/bench
log=$TEST_LOGS/$TEST_NAME.log
read -r -a extra <<<"${HYPTRACE_TEST_QEMU_ARGS:-}"

rm -f "$out/results.md" "$out/results.csv"
rc=0
bash "$HYPTRACE_TOP/bench/run.sh" --smoke \
	${extra[@]+-- "${extra[@]}"} >"$log" 2>&1 || rc=$?
info "bench/run.sh --smoke: exit $rc, output $log"
[ "$rc" = 0 ] || fail "bench/run.sh --smoke failed: $(grep -m1 '^error:' "$log" || tail -n 1 "$log")"
[ -f "$out/results.csv" ] || fail "no $out/results.csv"

# cell ROW N: a cell of the CSV row, N = 2 for hyptrace, 3 for the test
# remote (every cell after the row id is quoted).
cell() {
	awk -F'","' -v r="$1" -v n="$2" 'index($0, r ",\"") == 1 { print $n }' \
		"$out/results.csv"
}

# 4k-4s: the streaming readers, over virtio-serial and the network
ROWS="1a 1b 1c 1d 3a 3b 3c 3d 4a 4b 4c 4d 4e 4f 4g 4h 4i 4j 4k 4l 4m 4n 4o 4p 4q 4r 4s 5a 5b 5c 5d 6 8a 8b 8c"
for r in $ROWS; do
	v=$(cell "$r" 2)
	[[ $v =~ [0-9] ]] || fail "row $r has no figure for hyptrace: '$v'"
done
# ... each beside hyptrace record's, from the main boot
for r in 4k 4l 4n 4o 4q 4r; do
	v=$(cell "$r" 4)
	[[ $v =~ ^hyptrace\ record\ \(4[ei]\):\ .*[0-9] ]] ||
		fail "row $r has no hyptrace record figure beside it: '$v'"
done
for r in 1a 1b 4a 4c; do
	v=$(cell "$r" 3)
	[[ $v =~ [0-9] ]] || fail "row $r has no figure for the test remote: '$v'"
done
grep -q '^| 1a |' "$out/results.md" || fail "no table in $out/results.md"
pass "$(wc -w <<<"$ROWS") rows, each with its figures ($(sed -n 1p "$out/results.md" | cut -c1-60)...)"
