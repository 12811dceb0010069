#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# t-badinput.sh: `hyptrace report`, `stats` and `perfetto` on input that
# is not a good trace.dat exit 1 with exactly one line on stderr
# ("hyptrace SUBCOMMAND: ..."), and
# never crashes: a missing file, an empty one, a directory, text, the file
# cut at many lengths, structural bytes changed (magic, version, endianness,
# page size, a page's commit, an event's length), and 200 random
# byte changes, for which exit 0 with a clean stderr is also fine (a changed
# payload byte is still a valid trace).
#
# Run by run_tests.sh (BUILD, HYPTRACE, GEN_TRACE set). Reports in KTAP
# (tests/include/ktap.sh).

. "$(dirname "$0")/lib.sh"

"$GEN" --cpus 2 --pairs 400 --pages 8 --drain-every 300 "$T/good.dat" \
	>"$T/gen.log" 2>&1 || die "gen_trace: $(tail -n 1 "$T/gen.log")"
size=$(wc -c <"$T/good.dat")

# refused WHAT FILE [STDOUT_MAY_HAVE_LINES]: each subcommand that reads a
# trace.dat exits 1 with one line, prefixed, and (perfetto) writes nothing
refused() {
	for sub in report stats perfetto; do
		rm -f "$T/out.pf"
		if [ $sub = perfetto ]; then
			"$HYPTRACE" $sub "$2" -o "$T/out.pf" >"$T/out" 2>"$T/err"
		else
			"$HYPTRACE" $sub "$2" >"$T/out" 2>"$T/err"
		fi
		rc=$?
		if [ $rc -eq 1 ] && [ "$(wc -l <"$T/err")" -eq 1 ] &&
		   grep -q "^hyptrace $sub: " "$T/err" && [ ! -e "$T/out.pf" ] &&
		   { [ -n "${3:-}" ] || [ ! -s "$T/out" ]; }; then
			ok "$1 ($sub): $(cat "$T/err")"
		else
			bad "$1 ($sub): exit $rc, stderr: $(head -n 3 "$T/err")"
		fi
	done
}

# put FILE OFFSET BYTE...: overwrite bytes (decimal values) in place
put() {
	_f=$1
	_o=$2
	shift 2
	for _b in "$@"; do
		# shellcheck disable=SC2059
		printf "\\$(printf %o "$_b")"
	done | dd of="$_f" bs=1 seek="$_o" conv=notrunc 2>/dev/null
}

edited() {	# edited NAME: a fresh copy of the good file
	cp "$T/good.dat" "$T/$1"
	echo "$T/$1"
}

refused "missing file" "$T/no-such.dat"
: >"$T/empty.dat"
refused "empty file" "$T/empty.dat"
refused "a directory" "$T"
printf 'hello, not a trace\n' >"$T/text.dat"
refused "a text file" "$T/text.dat"

# cut short: in the magic, the headers, the formats, the CPU table, the data
for n in 1 3 10 11 13 17 30 100 400 1000 2000 4095 4096 4097 6000 8192 \
	 $((size - 4096)) $((size - 1)); do
	head -c "$n" "$T/good.dat" >"$T/cut.dat"
	refused "cut at $n of $size bytes" "$T/cut.dat"
done

f=$(edited magic.dat); put "$f" 0 0
refused "magic changed" "$f"
f=$(edited version.dat); put "$f" 10 55
refused "version 7" "$f"
f=$(edited endian.dat); put "$f" 12 1
refused "big-endian flag" "$f"
f=$(edited pagesize.dat); put "$f" 14 0 3
refused "page size 768" "$f"

# the pages: CPU 0's data offset from trace-cmd's view of the file
off=$(trace-cmd dump --flyrecord -i "$T/good.dat" 2>/dev/null |
	awk '/\[offset, size of cpu 0\]/ { print $1 }')
[ -n "$off" ] || die "trace-cmd dump --flyrecord gave no CPU 0 offset"
f=$(edited commit.dat); put "$f" $((off + 8)) 255 255 0 0
refused "first page's commit 65535" "$f"
f=$(edited length.dat); put "$f" $((off + 20)) 255 255 0 0
refused "first event's length 65535" "$f"
f=$(edited midpage.dat); put "$f" $((off + 4096 + 8)) 255 255 255 127
refused "second page's commit, after the first page's events" "$f" yes
if "$HYPTRACE" report "$f" 2>/dev/null | grep -q .; then
	ok "the events before the bad page were printed"
else
	bad "nothing printed before the bad page"
fi

# random single-byte changes: 0 and silence, or 1 and one line; no crash
awk -v size="$size" 'BEGIN {
	srand(12345)
	for (i = 0; i < 200; i++) {
		# half in the metadata and first page, half anywhere
		span = i % 2 ? size : 6000
		printf "%d %d\n", int(rand() * span), int(rand() * 256)
	}
}' >"$T/flips"
n0=0
n1=0
while read -r at val; do
	cp "$T/good.dat" "$T/flip.dat"
	put "$T/flip.dat" "$at" "$val"
	# stats reads every record and every field: the widest net
	"$HYPTRACE" stats "$T/flip.dat" >/dev/null 2>"$T/err"
	rc=$?
	if [ $rc -eq 0 ] && [ ! -s "$T/err" ]; then
		n0=$((n0 + 1))
	elif [ $rc -eq 1 ] && [ "$(wc -l <"$T/err")" -eq 1 ]; then
		n1=$((n1 + 1))
	else
		bad "byte $at set to $val: exit $rc, $(head -n 2 "$T/err")"
	fi
done <"$T/flips"
ok "200 random byte changes: $n0 still valid, $n1 refused with one line"

finish
