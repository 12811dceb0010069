#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# t-report.sh: `hyptrace report` prints exactly what gen_trace says the
# kernel's trace file would show for the events in the file (all CPUs
# merged by time, lost-event lines in place), for plain, lossy, idle-CPU
# and large traces, with the guest's own format files when
# tests/tools/fixtures/ has them; --cpu filters; --mmiotrace's empty
# case; --help and bad usage.
#
# Run by run_tests.sh (BUILD, HYPTRACE, GEN_TRACE set). Reports in KTAP
# (tests/include/ktap.sh).

. "$(dirname "$0")/lib.sh"

# same GEN_ARGS...: the report of a generated file equals its expectation
same() {
	tag=$1
	shift
	"$GEN" "$@" --expect "$T/$tag.exp" --summary "$T/$tag.sum" \
		"$T/$tag.dat" >"$T/gen.log" 2>&1 ||
		die "gen_trace $*: $(tail -n 1 "$T/gen.log")"
	"$HYPTRACE" report "$T/$tag.dat" >"$T/$tag.out" 2>"$T/$tag.err"
	rc=$?
	if [ $rc -eq 0 ] && [ ! -s "$T/$tag.err" ] &&
	   cmp -s "$T/$tag.exp" "$T/$tag.out"; then
		ok "$tag: $(wc -l <"$T/$tag.out") lines as expected"
	else
		bad "$tag: exit $rc, $(head -c 200 "$T/$tag.err")"
		diff "$T/$tag.exp" "$T/$tag.out" | head -n 10
	fi
}

same plain --cpus 2 --pairs 500
same lossy --cpus 4 --pairs 3000 --pages 4 --drain-every 700 --seed 7
same idle --cpus 3 --idle-cpu 1 --pairs 100 --clock ''
same long-gaps --cpus 2 --pairs 300 --gaps 2
same large --cpus 8 --pairs 20000 --pages 256 --drain-every 5000 --seed 3

# the lossy case must really have lost events, with and without a count
if grep -q '^CPU:[0-9]* \[LOST [0-9]* EVENTS\]$' "$T/lossy.out" &&
   grep -q '^CPU:[0-9]* \[LOST EVENTS\]$' "$T/lossy.out"; then
	ok "lossy: counted and uncounted losses shown"
else
	bad "lossy: the generated trace lost nothing, or always the same way"
fi
# and the long gaps needed time extends
if [ "$(sed -n 's/^cpu 0 extends //p' "$T/long-gaps.sum")" -gt 10 ]; then
	ok "long-gaps: time extends in the pages"
else
	bad "long-gaps: no time extends"
fi

# The guest's own format files, when the lead has captured them
if [ -f "$FIXTURES/hyp_enter.format" ]; then
	"$GEN" --dump-events "$T/gen-events" >/dev/null 2>&1
	for f in header_page header_event hyp_enter.format hyp_exit.format \
		 selftest.format mmio_read.format mmio_write.format \
		 mmio_unhandled.format maint_run.format; do
		if cmp -s "$FIXTURES/$f" "$T/gen-events/$f"; then
			ok "fixtures: generated $f is the guest's"
		else
			bad "fixtures: generated $f differs from the guest's"
			diff "$FIXTURES/$f" "$T/gen-events/$f" | head -n 6
		fi
	done
	same fixtures --cpus 2 --pairs 200 --events-dir "$FIXTURES"
else
	ok "fixtures: none in $FIXTURES yet, generated formats only"
fi

# --cpu N, repeated: only those CPUs' lines, lost-event lines included
"$HYPTRACE" report --cpu 1 --cpu 3 "$T/lossy.dat" >"$T/cpu.out" 2>"$T/cpu.err"
grep -E '^(\[00[13]\]|CPU:[13] )' "$T/lossy.exp" >"$T/cpu.exp"
if [ $? -eq 0 ] && cmp -s "$T/cpu.exp" "$T/cpu.out" && [ ! -s "$T/cpu.err" ]
then
	ok "--cpu 1 --cpu 3: $(wc -l <"$T/cpu.out") lines"
else
	bad "--cpu 1 --cpu 3 differs"
fi

# --help
"$HYPTRACE" report --help >"$T/help" 2>"$T/help.err"
if [ $? -eq 0 ] && head -n 1 "$T/help" | grep -q '^usage: hyptrace report' &&
   [ ! -s "$T/help.err" ]; then
	ok "--help"
else
	bad "--help"
fi

# usage errors: exit 2, one line on stderr, nothing on stdout
for args in "" "--bogus $T/plain.dat" "--cpu" "--cpu x $T/plain.dat" \
	    "--cpu -1 $T/plain.dat" "$T/plain.dat $T/plain.dat"; do
	# shellcheck disable=SC2086
	if one_line_exit "$T/usage.err" 2 "$HYPTRACE" report $args; then
		ok "usage '$args': $(cat "$T/usage.err")"
	else
		bad "usage '$args': want exit 2 and one line"
	fi
done

# --mmiotrace: mmiotrace's version line, and nothing for a trace without
# MMIO events; never with --cpu
"$HYPTRACE" report --mmiotrace "$T/plain.dat" >"$T/mmio.out" 2>"$T/mmio.err"
if [ $? -eq 0 ] && [ "$(cat "$T/mmio.out")" = "VERSION 20070824" ] &&
   [ ! -s "$T/mmio.err" ]; then
	ok "--mmiotrace: the version line alone for a trace without MMIO"
else
	bad "--mmiotrace on a trace without MMIO events: $(head -c 200 "$T/mmio.out")"
fi
if one_line_exit "$T/mmio-cpu.err" 2 "$HYPTRACE" report --mmiotrace --cpu 0 \
	"$T/plain.dat"; then
	ok "--mmiotrace --cpu: $(cat "$T/mmio-cpu.err")"
else
	bad "--mmiotrace --cpu 0: want exit 2 and one line"
fi

# a CPU the file does not have: the work fails, exit 1
if one_line_exit "$T/nocpu.err" 1 "$HYPTRACE" report --cpu 9 "$T/plain.dat"
then
	ok "--cpu 9: $(cat "$T/nocpu.err")"
else
	bad "--cpu 9 on a 2-CPU file"
fi

finish
