#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# t-stats.sh: `hyptrace stats` tells how long each CPU spends in EL2, and
# why, correctly. The figures are checked against an independent source:
# Debian's own `trace-cmd report -t` of the same file, paired by
# stats_check.py's own code (count, total, min, max, p50, p99, histogram
# per CPU and reason, unmatched enters/exits by kind, lost events, event
# counts, per-function totals), and against gen_trace's summary of what it
# wrote. Scenarios: plain, lossy (overwritten pages, markers with and
# without a count), an idle CPU, one CPU, the guest's own format files
# (tests/tools/fixtures), and "unpaired", where the format files rename
# hyp_exit to hyp_leave and selftest to hyp_exit, so that most enters are
# followed by enters, an exit comes with no enter, and enters are open at
# a loss and at the end. Then "big", 800,000 events, whose peak memory
# must stay under half the file's size; the command
# line (usage errors exit 2, bad files 1, one stderr line each), the text
# tables, and mutated files, which must never crash it.
# The pure logic also has unit tests, run first: el2stats_test.c, and
# loghist_test.c for the percentiles' histogram (p50/p99 are checked
# within its bound, 1/256), which must also fail on two broken copies of
# lib/loghist.c.
#
# Run by tests/tools/run_tests.sh with BUILD (scratch directory), HYPTRACE
# (the native hyptrace), GEN_TRACE (optional, default $BUILD/gen_trace) and
# FIXTURES (optional, default tests/tools/fixtures) set. Needs trace-cmd,
# python3, gcc and GNU time. Reports in KTAP (tests/include/ktap.sh): a
# check for each part, the first failure ends the test.

set -u

HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
TC_REPORT=$TOP/tests/tracecmd-report
NAME=t-stats
CHECK="python3 $HERE/stats_check.py"

# ok, bad, finish
# shellcheck source=tests/include/ktap.sh
. "$TOP/tests/include/ktap.sh"

fail() {
	bad "$*"
	finish
}

[ -n "${BUILD:-}" ] || fail "BUILD is not set"
if [ ! -f "${HYPTRACE:-}" ] || [ ! -x "$HYPTRACE" ]; then
	fail "HYPTRACE is not set to an executable"
fi
command -v trace-cmd >/dev/null 2>&1 ||
	fail "trace-cmd not found (apt-get install trace-cmd)"
command -v python3 >/dev/null 2>&1 || fail "python3 not found"
[ -x /usr/bin/time ] || fail "GNU time not found (apt-get install time)"

W=$BUILD/t-stats
rm -rf "$W"
mkdir -p "$W" || fail "cannot make $W"

# ---- the unit test of lib/el2stats.c ----

UNIT=$BUILD/el2stats_test
if [ ! -x "$UNIT" ]; then
	UNIT=$W/el2stats_test
	gcc -std=gnu11 -D_GNU_SOURCE -g -O1 -Wall -Wextra -Werror \
		-fsanitize=address,undefined -fno-sanitize-recover=all \
		-I"$TOP/tests/include" -I"$TOP/tools/hyptrace/include" -I"$TOP/shared" \
		-o "$UNIT" \
		"$HERE/el2stats_test.c" "$TOP/tools/hyptrace/lib/el2stats.c" \
		"$TOP/tools/hyptrace/lib/loghist.c" \
		"$TOP/tools/hyptrace/lib/el2names.c" 2>"$W/unit-build.log" ||
		fail "el2stats_test does not build: $(head -n 3 "$W/unit-build.log")"
fi
"$UNIT" >"$W/unit.log" 2>&1 || fail "el2stats_test: $(tail -n 5 "$W/unit.log")"
ok "$(tail -n 1 "$W/unit.log")"

# ---- the percentiles' histogram: its test, and that the test bites ----

# The histogram's two files, as the tree has them
LH_SRC=$TOP/tools/hyptrace/lib
LH_INC=$TOP/tools/hyptrace/include

# build_loghist_test OUT DIR: loghist_test.c with DIR/loghist.c and
# DIR/hyptrace/loghist.h (DIR a copy of the tree's two, or the tree)
build_loghist_test() {
	gcc -std=gnu11 -D_GNU_SOURCE -g -O1 -Wall -Wextra -Werror \
		-fsanitize=address,undefined -fno-sanitize-recover=all \
		-I"$TOP/tests/include" -I"$2" -o "$1" "$HERE/loghist_test.c" \
		"$2/loghist.c" \
		2>"$1.build.log"
}

LH=$BUILD/loghist_test
if [ ! -x "$LH" ]; then
	LH=$W/loghist_test
	mkdir -p "$W/loghist/hyptrace"
	cp "$LH_SRC/loghist.c" "$W/loghist/"
	cp "$LH_INC/hyptrace/loghist.h" "$W/loghist/hyptrace/"
	build_loghist_test "$LH" "$W/loghist" ||
		fail "loghist_test does not build: $(head -n 3 "$LH.build.log")"
fi
"$LH" >"$W/loghist.log" 2>&1 || fail "loghist_test: $(tail -n 5 "$W/loghist.log")"
ok "$(tail -n 1 "$W/loghist.log")"

# mutant NAME FILE SED: loghist_test must fail on loghist.[ch] with FILE
# edited by SED (the edit checked to change something)
mutant() {
	local dir=$W/mutant-$1
	local file=$2 orig=$LH_SRC/loghist.c
	if [ "$file" = loghist.h ]; then
		file=hyptrace/loghist.h
		orig=$LH_INC/$file
	fi
	mkdir -p "$dir/hyptrace"
	cp "$LH_SRC/loghist.c" "$dir/"
	cp "$LH_INC/hyptrace/loghist.h" "$dir/hyptrace/"
	sed -i "$3" "$dir/$file"
	cmp -s "$dir/$file" "$orig" &&
		fail "mutant $1: the edit '$3' no longer applies to $2"
	build_loghist_test "$dir/loghist_test" "$dir" ||
		fail "mutant $1 does not build: $(head -n 3 "$dir/loghist_test.build.log")"
	if "$dir/loghist_test" >"$dir/run.log" 2>&1; then
		fail "loghist_test passes with $1 ($2: $3)"
	fi
	grep -q 'off by more than 1/256' "$dir/run.log" ||
		fail "mutant $1: no quantile found out of bounds: $(tail -n 3 "$dir/run.log")"
}
# the bucket's low end instead of its midpoint: up to 1/128 off
mutant low-end loghist.c 's/return lo + ((hi - lo + 1) >> 1);/return lo + (hi - hi);/'
# 64 buckets per power of two instead of 128: a consistent, coarser layout
mutant coarse loghist.h 's/^#define LOGHIST_SUB_BITS\t7$/#define LOGHIST_SUB_BITS\t6/'
ok "loghist_test fails on a histogram outside its bound (2 mutants)"

# ---- the generator ----

GEN=${GEN_TRACE:-$BUILD/gen_trace}
if [ ! -x "$GEN" ]; then
	GEN=$W/gen_trace
	make -s -C "$HERE" BUILD="$W" "$GEN" >"$W/gen-build.log" 2>&1 ||
		fail "gen_trace does not build: $(head -n 3 "$W/gen-build.log")"
fi

# ---- scenarios: stats against trace-cmd ----

# scenario NAME "GEN_TRACE OPTIONS" [stats_check.py options...]
scenario() {
	local name=$1 gen_opts=$2 dat=$W/$1.dat
	shift 2

	# shellcheck disable=SC2086 # the options are words
	"$GEN" $gen_opts "$dat" >"$W/$name.gen.log" 2>&1 ||
		fail "$name: gen_trace $gen_opts: $(tail -n 3 "$W/$name.gen.log")"
	"$TC_REPORT" -t "$dat" >"$W/$name.report" 2>"$W/$name.report.err" ||
		fail "$name: trace-cmd report: $(head -n 3 "$W/$name.report.err")"
	"$HYPTRACE" stats --json --top 0 "$dat" >"$W/$name.json" \
		2>"$W/$name.stats.err" ||
		fail "$name: hyptrace stats --json: $(cat "$W/$name.stats.err")"
	$CHECK "$W/$name.report" "$W/$name.json" "$@" >"$W/$name.check" 2>&1 ||
		fail "$name: $(tail -n 12 "$W/$name.check")"
	ok "$name: $(tail -n 1 "$W/$name.check")"
}

scenario plain "--cpus 4 --pairs 400 --selftests 3 --seed 1 --summary $W/plain.sum" \
	--summary "$W/plain.sum"
scenario lossy "--cpus 3 --pairs 2000 --pages 4 --drain-every 700 --seed 7 --summary $W/lossy.sum" \
	--summary "$W/lossy.sum" --want enter_cut_by_lost=1 \
	--want exit_no_enter=1 --want lost_markers=2 --want lost_unknown=1
scenario idle "--cpus 3 --idle-cpu 1 --pairs 100 --summary $W/idle.sum" \
	--summary "$W/idle.sum"
scenario one "--cpus 1 --pairs 3 --selftests 0 --gaps 0 --summary $W/one.sum" \
	--summary "$W/one.sum"
# the format files exactly as a guest's tracefs printed them
FIXTURES=${FIXTURES:-$HERE/fixtures}
scenario fixtures "--events-dir $FIXTURES --cpus 2 --pairs 300 --seed 3 --summary $W/fixtures.sum" \
	--summary "$W/fixtures.sum"

# "unpaired": the same events under other names, from edited format files
EV=$W/events
"$GEN" --dump-events "$EV" >/dev/null 2>&1 || fail "gen_trace --dump-events"
sed -i 's/^name: hyp_exit$/name: hyp_leave/' "$EV/hyp_exit.format"
sed -i -e 's/^name: selftest$/name: hyp_exit/' \
	-e 's/u16 __reserved0;/u16 reason;/' -e 's/u32 __reserved1;/u32 func_id;/' \
	-e 's/u64 id;\(.*\)signed:0;/s64 ret;\1signed:1;/' \
	-e 's/^print fmt: .*/print fmt: "reason=%u func_id=0x%x ret=%lld", REC->reason, REC->func_id, REC->ret/' \
	"$EV/selftest.format"
if ! grep -q '^name: hyp_leave' "$EV/hyp_exit.format" ||
	! grep -q '^name: hyp_exit' "$EV/selftest.format" ||
	! grep -q 's64 ret;' "$EV/selftest.format"; then
	fail "unpaired: could not rename the events in gen_trace's format files"
fi
scenario unpaired "--events-dir $EV --cpus 3 --pairs 1000 --selftests 60 --pages 3 --drain-every 600 --seed 5" \
	--want enter_then_enter=100 --want exit_no_enter=1 \
	--want enter_cut_by_lost=1 --want enter_open_at_end=3

# ---- memory that does not grow with the trace ----

# 800,000 events, 16 MB, 4 MB per CPU: stats must not keep the intervals,
# nor the pages it has read (a mapped file's pages count as resident until
# given back), and must still read them all: gen_trace's own counts.
# GNU time measures the peak: a forked Python would count its own.
BIG=$W/big.dat
"$GEN" --cpus 4 --pairs 100000 --drain-every 1000 --summary "$W/big.sum" \
	"$BIG" >"$W/big.gen.log" 2>&1 || fail "big: gen_trace: $(tail -n 3 "$W/big.gen.log")"
/usr/bin/time -f %M -o "$W/big.rss" "$HYPTRACE" stats --json "$BIG" \
	>"$W/big.json" 2>"$W/big.err" || fail "big: hyptrace stats: $(cat "$W/big.err")"
python3 - "$W/big.json" "$W/big.sum" "$(tail -n 1 "$W/big.rss")" \
	"$(($(stat -c %s "$BIG") / 1024))" "$HERE" >"$W/big.check" 2>&1 <<'EOF' ||
import json, sys
stats, summary, peak_kb, size_kb, here = sys.argv[1:]
sys.path.insert(0, here)
from stats_check import Checker, check_gen_summary
# half the file: before, the intervals alone took 6 MB, the file's pages 16
if int(peak_kb) > int(size_kb) // 2:
    sys.exit("peak memory %s KB for a %s KB trace: it grows with the trace"
             % (peak_kb, size_kb))
chk = Checker()
check_gen_summary(summary, json.load(open(stats)), chk)
if chk.problems:
    sys.exit("mismatch: %d of %d checks against gen_trace's counts"
             % (chk.problems, chk.checks))
print("big: %d checks against gen_trace's counts, peak %s KB for %s KB"
      % (chk.checks, peak_kb, size_kb))
EOF
	fail "$(tail -n 3 "$W/big.check")"
ok "$(tail -n 1 "$W/big.check")"

# ---- the text output ----

TXT=$W/lossy.txt
"$HYPTRACE" stats "$W/lossy.dat" >"$TXT" 2>"$W/lossy.txt.err" ||
	fail "text: hyptrace stats: $(cat "$W/lossy.txt.err")"
python3 - "$TXT" "$W/lossy.json" >"$W/text.check" 2>&1 <<'EOF' ||
import json, re, sys
text = open(sys.argv[1], encoding="utf-8").read().split("\n")
stats = json.load(open(sys.argv[2], encoding="utf-8"))
titles = ["hyptrace stats: ", "Time in EL2 per CPU and reason (µs",
          "Unmatched enters and exits per CPU", "Records per CPU",
          "Top function IDs by count", "Top function IDs by time",
          "Lengths of the intervals in EL2"]
for title in titles:
    if not any(line.startswith(title) for line in text):
        sys.exit("no section titled %r" % title)
# every table: the rows after the title are as wide as their header
for i, line in enumerate(text):
    if line.startswith(tuple(titles[1:])):
        rows = []
        for row in text[i + 1:]:
            if not row:
                break
            rows.append(row)
        widths = {len(r) for r in rows}
        if "Lengths" in line:
            # the bars make rows longer: compare what comes before them
            widths = {len(r.rstrip("# ")) for r in rows if r.rstrip("# ")[-1:].isdigit()}
            widths |= {len(rows[0])}
        if len(widths) != 1:
            sys.exit("table %r is not aligned: widths %s" % (line, sorted(widths)))
want = stats["all"]["el2"]["count"]
if not any(re.match(r"all\s+\(all\)\s+%d\s" % want, l) for l in text):
    sys.exit("no 'all (all) %d' row" % want)
if not re.search(r"\b%d intervals in EL2" % want, "\n".join(text)):
    sys.exit("the header does not ok %d intervals" % want)
names = {f["name"] for f in stats["functions"]["by_count"][:10]}
for name in names:
    if not re.search(r"\s%s\s" % re.escape(name), "\n".join(text)):
        sys.exit("top function %r missing from the text" % name)
print("text ok: %d lines" % len(text))
EOF
	fail "text: $(tail -n 3 "$W/text.check")"
for name in CPU_ON PSCI_VERSION HYPTRACE_TRACE_QUERY; do
	grep -q " $name " "$TXT" || fail "text: no function named $name"
done
ok "$(cat "$W/text.check")"

# ---- the command line ----

# expect_exit STATUS ARGS...: one stderr line "hyptrace stats: ..." unless 0
expect_exit() {
	local want=$1 rc=0 lines
	shift
	"$HYPTRACE" stats "$@" >"$W/cli.out" 2>"$W/cli.err" || rc=$?
	[ "$rc" = "$want" ] ||
		fail "cli: 'stats $*' exits $rc, want $want: $(head -c 300 "$W/cli.err")"
	[ "$want" = 0 ] && return 0
	lines=$(wc -l <"$W/cli.err")
	if [ "$lines" != 1 ] || ! grep -q '^hyptrace stats: ' "$W/cli.err"; then
		fail "cli: 'stats $*' should ok one 'hyptrace stats: ' line, said: $(head -c 300 "$W/cli.err")"
	fi
}

expect_exit 0 --help
if ! grep -q '^usage: hyptrace stats' "$W/cli.out" ||
	! grep -q 'hyptrace-stats(1)' "$W/cli.out"; then
	fail "cli: --help does not give the usage and the man page"
fi
expect_exit 2
expect_exit 2 --bogus "$W/plain.dat"
expect_exit 2 --top "$W/plain.dat"
expect_exit 2 "$W/plain.dat" --top
grep -q "needs a value" "$W/cli.err" || fail "cli: a missing --top value is not named"
expect_exit 2 --top -3 "$W/plain.dat"
expect_exit 2 --top 3x "$W/plain.dat"
expect_exit 2 "$W/plain.dat" "$W/lossy.dat"
expect_exit 1 "$W/no-such-file.dat"
: >"$W/empty.dat"
expect_exit 1 "$W/empty.dat"
head -c 4000 /dev/urandom >"$W/random.dat"
expect_exit 1 "$W/random.dat"
head -c 10000 "$W/plain.dat" >"$W/cut.dat"
expect_exit 1 "$W/cut.dat"
expect_exit 1 "$W"
# options after the file, and --top cuts the function lists
expect_exit 0 "$W/plain.dat" --json --top 2
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert len(d["functions"]["by_count"]) == 2, "--top 2"
assert len(d["functions"]["by_time"]) == 2, "--top 2"
' "$W/cli.out" || fail "cli: 'stats FILE --json --top 2' is not JSON with 2 functions"
ok "command line ok"

# ---- mutated files: exit 0 or 1 with one line, never a crash ----

python3 - "$HYPTRACE" "$W" "$W/lossy.dat" "$W/unpaired.dat" >"$W/mutants.log" 2>&1 <<'EOF' ||
import json, random, subprocess, sys
hyptrace, work, sources = sys.argv[1], sys.argv[2], sys.argv[3:]
rnd = random.Random(4242)
outcomes = {0: 0, 1: 0}
for i in range(150):
    data = bytearray(open(sources[i % len(sources)], "rb").read())
    for _ in range(rnd.randint(1, 8)):
        # half in the headers and formats, half anywhere (the pages)
        span = len(data) if rnd.random() < 0.5 else min(len(data), 4096)
        data[rnd.randrange(span)] = rnd.randrange(256)
    path = "%s/mutant.dat" % work
    open(path, "wb").write(data)
    for args in (["--json"], []):
        p = subprocess.run([hyptrace, "stats", *args, path], capture_output=True)
        err = p.stderr.decode("utf-8", "replace")
        if p.returncode not in (0, 1):
            open("%s/crash-%d.dat" % (work, i), "wb").write(data)
            sys.exit("mutant %d: exit %d: %s" % (i, p.returncode, err[:300]))
        if p.returncode == 1 and (err.count("\n") != 1 or
                                  not err.startswith("hyptrace stats: ")):
            sys.exit("mutant %d: not one error line: %r" % (i, err[:300]))
        if p.returncode == 0 and args:
            json.loads(p.stdout.decode("utf-8"))
        outcomes[p.returncode] += 1
print("mutants ok: %d read, %d refused" % (outcomes[0], outcomes[1]))
EOF
	fail "$(tail -n 3 "$W/mutants.log")"
ok "$(tail -n 1 "$W/mutants.log")"

ok "stats agree with trace-cmd report on 6 traces, a big one read in bounded memory, command line, text, mutants"
finish
