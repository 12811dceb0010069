#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The host tools on one big generated trace, for bench rows 8a-8c (and by
# hand, to compare two builds of hyptrace on the same file):
#
#   bench/host/tools.sh [--pairs N] [--keep] HYPTRACE OUTDIR
#
# Writes OUTDIR/big.dat with tests/tools' gen_trace (built into OUTDIR):
# 4 CPUs, N hyp_enter/hyp_exit pairs each (default 2,000,000: 16 M events,
# 321 MB), drained every 1,000 events so that none is lost. Then times,
# one after the other in this run, Debian's `trace-cmd report`, and
# HYPTRACE's report, stats and perfetto (to /dev/null: the conversion, not
# the disk), and prints one line each:
#
#   events N bytes N
#   TOOL SECONDS PEAK_KB CPU_SECONDS
#                            (TOOL: trace-cmd-report, report, stats, perfetto)
#
# Seconds are wall-clock, CPU seconds user + sys (what a busy machine
# disturbs less), peak memory the maximum resident set (GNU time). The file is removed unless --keep. Needs trace-cmd, GNU time.
set -euo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"

pairs=2000000
keep=0
while [ $# -gt 2 ]; do
	case $1 in
	--pairs) pairs=$2; shift ;;
	--keep) keep=1 ;;
	*) die "tools.sh: unknown option '$1'" ;;
	esac
	shift
done
[ $# -eq 2 ] || die "usage: bench/host/tools.sh [--pairs N] [--keep] HYPTRACE OUTDIR"
ht=$1
out=$2
[ -x "$ht" ] || die "tools.sh: $ht is not an executable"
command -v trace-cmd >/dev/null || die "tools.sh: trace-cmd missing"
[ -x /usr/bin/time ] || die "tools.sh: GNU time missing (apt-get install time)"
mkdir -p "$out"

make -s -f "$HYPTRACE_TOP/tests/tools/Makefile" BUILD="$out" "$out/gen_trace" \
	>"$out/gen-build.log" 2>&1 || die "tools.sh: gen_trace does not build: $out/gen-build.log"
dat=$out/big.dat
"$out/gen_trace" --cpus 4 --pairs "$pairs" --selftests 0 --drain-every 1000 \
	--summary "$out/big.sum" "$dat" >"$out/gen.log" 2>&1 ||
	die "tools.sh: gen_trace: $(tail -n 1 "$out/gen.log")"
echo "events $(awk '$1 == "total" && $2 == "events" { print $3 }' "$out/big.sum") bytes $(stat -c %s "$dat")"

# measure NAME CMD...: "NAME SECONDS PEAK_KB CPU_SECONDS", output thrown away
measure() {
	local name=$1 s kb user sys
	shift
	/usr/bin/time -f '%e %M %U %S' -o "$out/$name.time" "$@" >/dev/null \
		2>"$out/$name.err" || die "tools.sh: $name failed: $(tail -n 1 "$out/$name.err")"
	read -r s kb user sys <"$out/$name.time"
	echo "$name $s $kb $(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')"
}
measure trace-cmd-report trace-cmd report -i "$dat"
measure report "$ht" report "$dat"
measure stats "$ht" stats "$dat"
measure perfetto "$ht" perfetto -o /dev/null "$dat"
[ "$keep" = 1 ] || rm -f "$dat"
