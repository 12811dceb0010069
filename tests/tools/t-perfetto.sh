#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# t-perfetto.sh: `hyptrace perfetto` writes a Perfetto trace that says what
# the trace.dat says. The output is decoded without hyptrace's encoder:
#   - `protoc --decode_raw` for the wire structure: field numbers, nesting,
#     one event per FtraceEvent, counts, timestamps, lost-event marks;
#   - `protoc --decode=perfetto.protos.Trace` with perfetto_subset.proto
#     (field names and numbers copied from Perfetto's protos) for names and
#     values: no field may be unknown to the schema, and every event must
#     match what `trace-cmd report` prints for the same file.
# Inputs come from gen_trace, whose summary gives the expected counts.
#
# Run by tests/tools/run_tests.sh with BUILD (the test build directory) and
# HYPTRACE (the native hyptrace) set. Needs protoc (Debian's
# protobuf-compiler) and trace-cmd. Reports in KTAP (tests/include/ktap.sh):
# a check for each part, the first failure ends the test.

# "A && B || fail" is meant: fail unless both hold
# shellcheck disable=SC2015

set -u

HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
TC_REPORT=$TOP/tests/tracecmd-report
PROTO="$HERE/perfetto_subset.proto"
NAME=t-perfetto

# ok, bad, finish
# shellcheck source=tests/include/ktap.sh
. "$TOP/tests/include/ktap.sh"

fail() {
	bad "$*"
	finish
}

[ -n "${BUILD:-}" ] || fail "BUILD is not set"
[ -n "${HYPTRACE:-}" ] && [ -x "$HYPTRACE" ] ||
	fail "HYPTRACE is not set to an executable"
command -v protoc >/dev/null 2>&1 ||
	fail "protoc not found (apt-get install protobuf-compiler)"
command -v trace-cmd >/dev/null 2>&1 ||
	fail "trace-cmd not found (apt-get install trace-cmd)"

T=$(mktemp -d "${TMPDIR:-/tmp}/t-perfetto.XXXXXX") || fail "mktemp"
trap 'rm -rf "$T"' EXIT

# gen_trace: as the runner built it, else built here from its sources
GEN=
for g in "${GEN_TRACE:-}" "$BUILD/gen_trace" "$BUILD/tests/gen_trace" \
	 "$BUILD/tests/tools/gen_trace"; do
	if [ -n "$g" ] && [ -x "$g" ]; then
		GEN=$g
		break
	fi
done
if [ -z "$GEN" ]; then
	GEN=$T/gen_trace
	make -s -C "$HERE" BUILD="$T" "$GEN" >"$T/gen.log" 2>&1 ||
		fail "no gen_trace in $BUILD and building one failed: $(head -1 "$T/gen.log")"
fi

# ---- decoders (awk: POSIX, mawk is enough) ----

# protoc --decode_raw text -> one line per item:
#   E cpu ts pid kind      an FtraceEvent (kind: its event's field number)
#   B cpu lost nr_events   an FtraceEventBundle
#   S phase cpu overrun read_events
#   P fields ts clock seq  a TracePacket: its field numbers, sorted
#   X what                 anything not where the schema puts it
flatten_raw() {
	awk '
	function bad(m) { print "X line " NR ": " m }
	function open_(f) {
		d++; path[d] = f
		if (d == 1) {
			if (f != 1) bad("top-level field " f ", not Trace.packet")
			pf = ""; pts = "-"; pclk = "-"; pseq = "-"; nb = 0; ns = 0
			bcpu = "-"; blost = 0; phase = "-"
		} else if (d == 2) {
			pf = pf " " f
			if (f != 1 && f != 34) bad("TracePacket message field " f)
		} else if (d == 3 && path[2] == 1) {
			if (f != 2) bad("FtraceEventBundle message field " f)
			ets = "-"; epid = "-"; ekind = "-"; nk = 0
		} else if (d == 3 && path[2] == 34) {
			if (f != 2) bad("FtraceStats message field " f)
			ccpu = "-"; cover = "-"; cread = "-"
		} else if (d == 4 && path[2] == 1 && path[3] == 2) {
			ekind = f; nk++
		}
	}
	function value(f, v) {
		if (d == 1) {
			pf = pf " " f
			if (f == 8) pts = v
			else if (f == 58) pclk = v
			else if (f == 10) pseq = v
			else bad("TracePacket field " f)
		} else if (d == 2 && path[2] == 1) {
			if (f == 1) bcpu = v
			else if (f == 3) blost = v
			else bad("FtraceEventBundle field " f)
		} else if (d == 2 && path[2] == 34) {
			if (f == 1) phase = v
			else bad("FtraceStats field " f)
		} else if (d == 3 && path[2] == 1 && path[3] == 2) {
			if (f == 1) ets = v
			else if (f == 2) epid = v
			else if (v == "\"\"") { ekind = f; nk++ }
			else bad("FtraceEvent field " f ": " v)
		} else if (d == 3 && path[2] == 34 && path[3] == 2) {
			if (f == 1) ccpu = v
			else if (f == 3) cover = v
			else if (f == 9) cread = v
			else bad("FtraceCpuStats field " f)
		}
	}
	function close_() {
		if (d == 3 && path[2] == 1) {
			if (nk != 1) bad(nk " events in one FtraceEvent")
			if (ets == "-" || epid == "-") bad("FtraceEvent without timestamp or pid")
			ev[++nb] = ets " " epid " " ekind
		} else if (d == 3 && path[2] == 34) {
			st[++ns] = ccpu " " cover " " cread
		} else if (d == 2 && path[2] == 1) {
			for (i = 1; i <= nb; i++) print "E " bcpu " " ev[i]
			print "B " bcpu " " blost " " nb
		} else if (d == 2 && path[2] == 34) {
			for (i = 1; i <= ns; i++) print "S " phase " " st[i]
		} else if (d == 1) {
			n = split(pf, a, " "); s = ""
			for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
				if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
			for (i = 1; i <= n; i++) s = s (i > 1 ? "," : "") a[i]
			print "P " s " " pts " " pclk " " pseq
		}
		d--
	}
	/^ *[0-9]+ \{$/ { open_($1); next }
	/^ *\}$/ { close_(); next }
	/^ *[0-9]+: / {
		f = $1; sub(/:$/, "", f)
		v = $0; sub(/^ *[0-9]+: /, "", v)
		value(f, v); next
	}
	{ bad("unexpected: " $0) }
	'
}

# Hex of a non-negative integer below 2^53, without printf %x (mawk's is
# 32-bit signed)
AWK_HEX='function hex(n,  s, r) { s = ""; do { r = n % 16; s = substr("0123456789abcdef", r + 1, 1) s; n = (n - r) / 16 } while (n > 0); return "0x" s }'
# The reason symbols of shared/hyp_events.h, as the print fmt shows them
AWK_REASON='function reason(r) { if (r == 1) return "hvc"; if (r == 2) return "smc"; if (r == 3) return "psci"; if (r == 4) return "firmware"; if (r == 5) return "trap"; if (r == 6) return "psci_local"; return hex(r) }'

# protoc --decode text -> "cpu ts name fields" per generic event and per
# sched_switch, the fields of ours printed as their print fmt prints them
events_from_schema() {
	awk "$AWK_HEX $AWK_REASON"'
	/^ *cpu: / { cpu = $2 }
	/^ *event \{/ { ts = ""; name = ""; gen = 0; split("", fv) }
	/^ *timestamp: / { ts = $2 }
	/^ *event_name: / { name = $2; gsub(/"/, "", name) }
	/^ *name: / { fn = $2; gsub(/"/, "", fn) }
	/^ *(uint_value|int_value|str_value): / { v = $2; gsub(/"/, "", v); fv[fn] = v }
	/^ *generic \{/ { gen = 1 }
	/^ *sched_switch \{/ { name = "sched_switch"; gen = 1 }
	/^    \}$/ {
		# the end of an event (depth 2 in the text output)
		if (!gen) next
		gen = 0
		s = cpu " " ts " " name
		if (name == "hyp_enter" || name == "hyp_exit")
			s = s " reason=" reason(fv["reason"]) " func_id=" hex(fv["func_id"])
		if (name == "hyp_exit")
			s = s " ret=" fv["ret"]
		if (name == "selftest")
			s = s " id=" fv["id"]
		print s
	}
	'
}

# trace-cmd report -t -> the same lines, and "L cpu count" per loss
events_from_report() {
	"$TC_REPORT" -t "$1" 2>/dev/null | awk '
	/^CPU:[0-9]+ \[/ {
		c = substr($1, 5) + 0; n = $2; sub(/^\[/, "", n)
		print "L " c " " (n ~ /^[0-9]+$/ ? n : "?")
		next
	}
	match($0, /\[[0-9]+\] +[0-9.]+: +[a-z_0-9]+:/) {
		split(substr($0, RSTART, RLENGTH), a, " ")
		cpu = a[1]; gsub(/[][]/, "", cpu); cpu = cpu + 0
		ts = a[2]; sub(/:$/, "", ts)
		if (split(ts, t, ".") == 2) ts = t[1] t[2]
		sub(/^0+/, "", ts)
		name = a[3]; sub(/:$/, "", name)
		rest = substr($0, RSTART + RLENGTH); gsub(/^ +| +$/, "", rest)
		gsub(/ +/, " ", rest)
		if (name == "hyp_enter" || name == "hyp_exit" || name == "selftest")
			print cpu " " ts " " name " " rest
		else
			print cpu " " ts " " name
	}
	'
}

sum_key() {	# FILE KEY: the value of "KEY value" in a gen_trace summary
	awk -v k="$2" '{ v = $NF; $NF = ""; sub(/ $/, "") } $0 == k { print v }' "$1"
}

# ---- one trace through the converter ----

# check_trace TAG GEN_ARGS...: generate, convert, check everything
check_trace() {
	tag=$1
	shift
	D=$T/$tag
	mkdir -p "$D"
	"$GEN" "$@" --summary "$D/sum" "$D/in.dat" >"$D/gen.out" 2>&1 ||
		fail "$tag: gen_trace $*: $(tail -1 "$D/gen.out")"
	"$HYPTRACE" perfetto "$D/in.dat" -o "$D/out.pftrace" 2>"$D/err"
	rc=$?
	[ $rc -eq 0 ] || fail "$tag: exit $rc: $(head -1 "$D/err")"
	[ "$(wc -l <"$D/err")" -eq 1 ] &&
		grep -q '^hyptrace perfetto: .* events from .* CPUs' "$D/err" ||
		fail "$tag: not a one-line summary: $(cat "$D/err")"

	protoc --decode_raw <"$D/out.pftrace" >"$D/raw.txt" 2>"$D/protoc.err" ||
		fail "$tag: protoc --decode_raw: $(head -1 "$D/protoc.err")"
	flatten_raw <"$D/raw.txt" >"$D/flat"
	if grep -q '^X' "$D/flat"; then
		fail "$tag: $(grep -m1 '^X' "$D/flat")"
	fi
	events_from_report "$D/in.dat" >"$D/report"
	grep -q . "$D/report" || fail "$tag: trace-cmd report printed nothing"

	# packets: every one on sequence 1; stats first and last, BOOTTIME
	awk '$1 == "P" && $5 != 1 { print; exit 1 }' "$D/flat" >/dev/null ||
		fail "$tag: a packet without trusted_packet_sequence_id 1"
	first=$(grep '^P' "$D/flat" | head -1)
	last=$(grep '^P' "$D/flat" | tail -1)
	cpus=$(sum_key "$D/sum" cpus)
	for p in "$first" "$last"; do
		case "$p" in
		"P 8,10,34,58 "*" 6 1") ;;
		*) fail "$tag: first or last packet is not FtraceStats at BOOTTIME: $p" ;;
		esac
	done
	[ "$(grep -c '^P 8,10,34,58 ' "$D/flat")" -eq 2 ] ||
		fail "$tag: not exactly two FtraceStats packets"
	grep '^P' "$D/flat" | grep -v '^P 8,10,34,58 ' |
		grep -qv '^P 1,10 - - 1$' &&
		fail "$tag: a bundle packet with more than ftrace_events and the sequence id"

	# per CPU, against gen_trace's counts and trace-cmd's loss marks
	c=0
	while [ $c -lt "$cpus" ]; do
		want_ev=$(sum_key "$D/sum" "cpu $c events")
		want_en=$(sum_key "$D/sum" "cpu $c hyp_enter")
		want_pairs=$(sum_key "$D/sum" "cpu $c pairs")
		want_el2=$(sum_key "$D/sum" "cpu $c el2_ns")
		want_marks=$(sum_key "$D/sum" "cpu $c lost_marks")
		want_over=$(awk -v c=$c '$1 == "L" && $2 == c && $3 != "?" { n += $3 } END { print n + 0 }' "$D/report")
		got=$(awk -v c=$c '
		$1 == "E" && $2 == c {
			if ($3 + 0 < last + 0) back++
			last = $3; k = $5
			# no task: common_pid is only an alias, for KernelShark
			if ($4 != 0) pid++
			if (k == 327 || k == 4) ev++
			if (k == 588) { en++; open = 1; ets = $3 }
			if (k == 584) {
				ex++
				if (!open) orphan++
				else if ($3 == ets) zero++
				else el2 += $3 - ets
				open = 0
			}
			if (k != 327 && k != 4 && k != 588 && k != 584 &&
			    k != 478 && k != 479) other++
			if (first == "") first = $3
		}
		$1 == "B" && $2 == c && $3 == 1 { lost++ }
		$1 == "S" && $3 == c { st[$2] = $4 " " $5 }
		END {
			printf "ev=%d en=%d ex=%d zero=%d orphan=%d el2=%.0f other=%d back=%d lost=%d pid=%d first=%s last=%s start=%s end=%s\n",
				ev, en, ex, zero, orphan, el2, other, back, lost,
				pid, first, last, st[1], st[2]
		}' "$D/flat")
		want="ev=$want_ev en=$want_en ex=$want_en zero=$((want_en - want_pairs)) orphan=0 el2=$want_el2 other=0 back=0 lost=$want_marks pid=0"
		if [ "$want_ev" -gt 0 ]; then
			want="$want first=$(sum_key "$D/sum" "cpu $c first_ts") last=$(sum_key "$D/sum" "cpu $c last_ts")"
		else
			want="$want first= last="
		fi
		want="$want start=0 0 end=$want_over $want_ev"
		[ "$got" = "$want" ] ||
			fail "$tag: CPU $c: got $got, want $want"
		c=$((c + 1))
	done

	# names and values, through the schema, against trace-cmd report
	protoc --decode=perfetto.protos.Trace -I"$HERE" "$PROTO" \
		<"$D/out.pftrace" >"$D/schema.txt" 2>"$D/protoc.err" ||
		fail "$tag: protoc --decode: $(head -1 "$D/protoc.err")"
	if grep -Eq '^ *[0-9]+( \{|:)' "$D/schema.txt"; then
		fail "$tag: fields unknown to Perfetto's schema: $(grep -Em1 '^ *[0-9]+( \{|:)' "$D/schema.txt")"
	fi
	events_from_schema <"$D/schema.txt" | sort >"$D/ours"
	grep -v '^L' "$D/report" | sort >"$D/theirs"
	cmp -s "$D/ours" "$D/theirs" ||
		fail "$tag: events differ from trace-cmd report: $(diff "$D/theirs" "$D/ours" | grep -m1 '^[<>]')"
	[ "$(grep -c 'hypervisor_hyp_enter {' "$D/schema.txt")" -eq \
	  "$(grep -c ' hyp_enter ' "$D/theirs")" ] ||
		fail "$tag: hypervisor_hyp_enter count differs from report's hyp_enter"
}

# ---- the cases ----

# clean: 4 CPUs, one of them with no data; long gaps (time extends)
check_trace clean --cpus 4 --pairs 400 --selftests 3 --idle-cpu 2
# the calls inside the slices: host_smc for each paired SMC (forwarded for
# the part after firmware's answer), host_hcall for each paired HVC and
# hypervisor-answered PSCI call, none for the others
D=$T/clean
calls=$(grep -Ec '^ *host_smc \{' "$D/schema.txt")/$(grep -Ec '^ *host_hcall \{' "$D/schema.txt")/$(awk '/^ *host_smc \{/ {s = 1} s && /forwarded: 1/ {n++; s = 0} /^ *\}/ {s = 0} END {print n + 0}' "$D/schema.txt")
rp() { v=$(sum_key "$D/sum" "reason $1 pairs"); echo "${v:-0}"; }
want=$(($(rp smc) + $(rp firmware)))/$(($(rp hvc) + $(rp psci_local)))/$(rp firmware)
[ "$calls" = "$want" ] ||
	fail "clean: host_smc/host_hcall/forwarded $calls, want $want (the paired slices by reason)"

# lossy: a small ring drained now and then loses events, some uncounted
check_trace lossy --cpus 2 --pairs 2000 --pages 3 --drain-every 1000 --seed 7
grep -q '^B [0-9]* 1 ' "$T/lossy/flat" ||
	fail "lossy: gen_trace lost nothing, the case tests nothing"

# --hyp-group hyp: Android's field numbers instead, the same events
D=$T/clean
"$HYPTRACE" perfetto --hyp-group hyp "$D/in.dat" -o "$D/hyp.pftrace" \
	2>/dev/null || fail "--hyp-group hyp failed"
protoc --decode_raw <"$D/hyp.pftrace" | flatten_raw >"$D/hyp.flat"
a=$(awk '$1 == "E" { n[$5]++ } END { printf "%d %d %d %d", n[476], n[477], n[588], n[584] }' "$D/hyp.flat")
b=$(awk '$1 == "E" { n[$5]++ } END { printf "%d %d 0 0", n[588], n[584] }' "$D/flat")
[ "$a" = "$b" ] || fail "--hyp-group hyp: typed events $a, want $b"

# -o - writes the same bytes to standard output
"$HYPTRACE" perfetto "$D/in.dat" -o - >"$D/stdout.pftrace" 2>/dev/null ||
	fail "-o - failed"
cmp -s "$D/stdout.pftrace" "$D/out.pftrace" || fail "-o - wrote other bytes"

# -o a FIFO (or a device: /dev/null) is written to, not replaced by a
# renamed file (which, as root, would replace /dev/null for everyone)
mkfifo "$D/fifo" || fail "mkfifo"
timeout 60 cat "$D/fifo" >"$D/fifo.pftrace" &
reader=$!
timeout 60 "$HYPTRACE" perfetto "$D/in.dat" -o "$D/fifo" 2>/dev/null ||
	fail "-o FIFO failed"
wait "$reader" || fail "nothing read from the FIFO"
[ -p "$D/fifo" ] || fail "-o FIFO replaced the FIFO with a file"
cmp -s "$D/fifo.pftrace" "$D/out.pftrace" || fail "-o FIFO wrote other bytes"

# default output name: FILE without .dat, plus .perfetto-trace
"$HYPTRACE" perfetto "$D/in.dat" 2>/dev/null && [ -f "$D/in.perfetto-trace" ] ||
	fail "no default output in.perfetto-trace"

# a clock other than boot: converted, with a warning before the summary
check_clock() {
	"$GEN" --cpus 1 --pairs 5 --clock "$1" "$T/clock.dat" >/dev/null 2>&1 ||
		fail "gen_trace --clock '$1'"
	"$HYPTRACE" perfetto "$T/clock.dat" -o "$T/clock.pftrace" 2>"$T/clock.err" ||
		fail "clock '$1': $(head -1 "$T/clock.err")"
	[ "$(grep -c '^hyptrace perfetto: warning: .*trace clock' "$T/clock.err")" -eq "$2" ] ||
		fail "clock '$1': want $2 warnings: $(cat "$T/clock.err")"
}
check_clock "[boot]" 0
check_clock "" 0
check_clock "[local] global boot" 1

# ---- host kernel events: a trace.dat trace-cmd assembles (restore) ----

le() {	# VALUE BYTES: little-endian binary
	_v=$1
	_n=$2
	while [ "$_n" -gt 0 ]; do
		# shellcheck disable=SC2059
		printf "\\$(printf %03o $((_v & 255)))"
		_v=$((_v >> 8))
		_n=$((_n - 1))
	done
}
str() {	# TEXT BYTES: NUL-padded
	printf '%s' "$1"
	head -c $(($2 - ${#1})) /dev/zero
}
evhdr() {	# DELTA PAYLOAD_BYTES: ring-buffer event header, type_len 1..28
	le $(($1 << 5 | $2 / 4)) 4
}
common() {	# ID PID: the common fields
	le "$1" 2
	le 0 2
	le "$2" 4
}
switch() {	# DELTA PREV_COMM PREV_PID PREV_STATE NEXT_COMM NEXT_PID
	evhdr "$1" 64
	common 1 "$3"
	str "$2" 16; le "$3" 4; le 120 4; le "$4" 8
	str "$5" 16; le "$6" 4; le 120 4
}
irq() {		# DELTA PID IRQ NAME: irq_handler_entry, NAME 7 characters
	evhdr "$1" 24
	common 2 "$2"
	le "$3" 4; le $((8 << 16 | 16)) 4; str "$4" 8
}

H=$T/host
fs=$H/fs/events
mkdir -p "$fs/ftrace/function" "$fs/sched/sched_switch" \
	"$fs/irq/irq_handler_entry"
"$GEN" --dump-events "$H/gen-events" >/dev/null 2>&1 ||
	fail "gen_trace --dump-events"
cp "$H/gen-events/header_page" "$H/gen-events/header_event" "$fs/"
c='	field:unsigned short common_type;	offset:0;	size:2;	signed:0;
	field:unsigned char common_flags;	offset:2;	size:1;	signed:0;
	field:unsigned char common_preempt_count;	offset:3;	size:1;	signed:0;
	field:int common_pid;	offset:4;	size:4;	signed:1;
'
printf 'name: function\nID: 100\nformat:\n%s\n%s\n\nprint fmt: " %%ps", (void *)REC->ip\n' \
	"$c" '	field:unsigned long ip;	offset:8;	size:8;	signed:0;' \
	>"$fs/ftrace/function/format"
printf 'name: sched_switch\nID: 1\nformat:\n%s\n%s\n\nprint fmt: "prev_comm=%%s prev_pid=%%d prev_prio=%%d prev_state=%%ld ==> next_comm=%%s next_pid=%%d next_prio=%%d", REC->prev_comm, REC->prev_pid, REC->prev_prio, REC->prev_state, REC->next_comm, REC->next_pid, REC->next_prio\n' \
	"$c" '	field:char prev_comm[16];	offset:8;	size:16;	signed:0;
	field:pid_t prev_pid;	offset:24;	size:4;	signed:1;
	field:int prev_prio;	offset:28;	size:4;	signed:1;
	field:long prev_state;	offset:32;	size:8;	signed:1;
	field:char next_comm[16];	offset:40;	size:16;	signed:0;
	field:pid_t next_pid;	offset:56;	size:4;	signed:1;
	field:int next_prio;	offset:60;	size:4;	signed:1;' \
	>"$fs/sched/sched_switch/format"
printf 'name: irq_handler_entry\nID: 2\nformat:\n%s\n%s\n\nprint fmt: "irq=%%d name=%%s", REC->irq, __get_str(name)\n' \
	"$c" '	field:int irq;	offset:8;	size:4;	signed:1;
	field:__data_loc char[] name;	offset:12;	size:4;	signed:0;' \
	>"$fs/irq/irq_handler_entry/format"
printf '42 kworker/0:1\n77 sh\n' >"$H/fs/saved_cmdlines"
: >"$H/fs/printk_formats"
{
	switch 0 swapper/0 0 0 kworker/0:1 42
	irq 1000 42 33 virtio0
	switch 500 kworker/0:1 42 1 swapper/0 0
	switch 100000 swapper/0 0 0 sh 77
} >"$H/events.bin"
n=$(wc -c <"$H/events.bin")
{
	le 1000000000 8
	le "$n" 8
	cat "$H/events.bin"
	head -c $((4096 - 16 - n)) /dev/zero
} >"$H/cpu0.raw"
(cd "$H" && trace-cmd restore -c -t fs -o partial.dat &&
	trace-cmd restore -i partial.dat -o host7.dat cpu0.raw &&
	trace-cmd convert --file-version 6 -i host7.dat -o host.dat) \
	>"$H/restore.log" 2>&1 ||
	fail "host: trace-cmd restore failed: $(tail -1 "$H/restore.log")"
"$HYPTRACE" perfetto "$H/host.dat" -o "$H/out.pftrace" 2>"$H/err" ||
	fail "host: $(head -1 "$H/err")"
protoc --decode_raw <"$H/out.pftrace" | flatten_raw >"$H/flat"
if grep -q '^X' "$H/flat"; then
	fail "host: $(grep -m1 '^X' "$H/flat")"
fi
protoc --decode=perfetto.protos.Trace -I"$HERE" "$PROTO" \
	<"$H/out.pftrace" >"$H/schema.txt" 2>/dev/null ||
	fail "host: protoc --decode failed"
if grep -Eq '^ *[0-9]+( \{|:)' "$H/schema.txt"; then
	fail "host: fields unknown to Perfetto's schema"
fi
# each event on one line: "key=value", message names, in order
awk '
/^    event \{/ { e = 1; s = ""; next }
e && /^    \}/ { print s; e = 0; next }
e {
	l = $0; sub(/^ +/, "", l); gsub(/"/, "", l)
	if (l ~ / \{$/) { sub(/ \{$/, "", l); s = s (s == "" ? "" : " ") l }
	else if (l != "}") { sub(/: /, "=", l); s = s (s == "" ? "" : " ") l }
}' "$H/schema.txt" >"$H/got"
cat >"$H/want" <<'WANT'
timestamp=1000000000 pid=0 sched_switch prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=0 next_comm=kworker/0:1 next_pid=42 next_prio=120
timestamp=1000001000 pid=42 generic event_name=irq_handler_entry field name=irq int_value=33 field name=name str_value=virtio0
timestamp=1000001500 pid=42 sched_switch prev_comm=kworker/0:1 prev_pid=42 prev_prio=120 prev_state=1 next_comm=swapper/0 next_pid=0 next_prio=120
timestamp=1000101500 pid=0 sched_switch prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=0 next_comm=sh next_pid=77 next_prio=120
WANT
cmp -s "$H/want" "$H/got" ||
	fail "host: events differ from what was written: $(diff "$H/want" "$H/got" | grep -m1 '^>')"
events_from_schema <"$H/schema.txt" | cut -d' ' -f1-3 | sort >"$H/ours"
events_from_report "$H/host.dat" | cut -d' ' -f1-3 | sort >"$H/theirs"
cmp -s "$H/ours" "$H/theirs" ||
	fail "host: events differ from trace-cmd report"

# fixtures (FIXTURES, e.g. files trace-cmd recorded in a guest, host
# kernel events included): whatever `hyptrace report` reads must convert,
# and match trace-cmd report event for event (CPU, time and name)
nfix=0
for f in "${FIXTURES:-/nonexistent}"/*.dat; do
	[ -f "$f" ] || continue
	"$HYPTRACE" report "$f" >/dev/null 2>&1 || continue
	"$HYPTRACE" perfetto "$f" -o "$T/fix.pftrace" 2>"$T/fix.err" ||
		fail "fixture $f: $(head -1 "$T/fix.err")"
	protoc --decode_raw <"$T/fix.pftrace" | flatten_raw >"$T/fix.flat"
	if grep -q '^X' "$T/fix.flat"; then
		fail "fixture $f: $(grep -m1 '^X' "$T/fix.flat")"
	fi
	protoc --decode=perfetto.protos.Trace -I"$HERE" "$PROTO" \
		<"$T/fix.pftrace" >"$T/fix.txt" 2>/dev/null ||
		fail "fixture $f: protoc --decode failed"
	if grep -Eq '^ *[0-9]+( \{|:)' "$T/fix.txt"; then
		fail "fixture $f: fields unknown to Perfetto's schema"
	fi
	# names only: trace-cmd may not parse every format's print fmt
	events_from_schema <"$T/fix.txt" | cut -d' ' -f1-3 | sort >"$T/fix.ours"
	events_from_report "$f" | grep -v '^L' | cut -d' ' -f1-3 |
		sort >"$T/fix.theirs"
	cmp -s "$T/fix.ours" "$T/fix.theirs" ||
		fail "fixture $f: events differ from trace-cmd report: $(diff "$T/fix.theirs" "$T/fix.ours" | grep -m1 '^[<>]')"
	nfix=$((nfix + 1))
done

# ---- errors: one line, exit 1 for input, 2 for usage, old output kept ----

expect_err() {	# WANT_RC WHAT ARGS...
	want=$1
	what=$2
	shift 2
	"$HYPTRACE" perfetto "$@" >"$T/e.out" 2>"$T/e.err"
	rc=$?
	[ $rc -eq "$want" ] || fail "$what: exit $rc, want $want"
	[ "$(wc -l <"$T/e.err")" -eq 1 ] &&
		grep -q '^hyptrace perfetto: ' "$T/e.err" ||
		fail "$what: not one 'hyptrace perfetto:' line: $(cat "$T/e.err")"
}

"$HYPTRACE" perfetto --help >"$T/help" 2>&1 && grep -q '^usage: hyptrace perfetto' "$T/help" ||
	fail "--help"
expect_err 2 "no file"
expect_err 2 "two files" "$D/in.dat" "$D/in.dat"
expect_err 2 "unknown option" --bogus "$D/in.dat"
expect_err 2 "bad group" --hyp-group xen "$D/in.dat"
expect_err 2 "-o without argument" "$D/in.dat" -o

echo old >"$T/keep"
expect_err 1 "missing file" "$T/nonexistent.dat" -o "$T/keep"
printf 'not a trace' >"$T/garbage.dat"
expect_err 1 "garbage" "$T/garbage.dat" -o "$T/keep"
head -c 10000 "$D/in.dat" >"$T/short.dat"
expect_err 1 "truncated" "$T/short.dat" -o "$T/keep"
# a page whose commit is beyond the page: the last page of the last CPU
cp "$D/in.dat" "$T/corrupt.dat"
size=$(wc -c <"$T/corrupt.dat")
printf '\377\377\377\177' | dd of="$T/corrupt.dat" bs=1 \
	seek=$((size - 4096 + 8)) conv=notrunc 2>/dev/null
expect_err 1 "corrupt page" "$T/corrupt.dat" -o "$T/keep"
[ "$(cat "$T/keep")" = old ] || fail "a failed run replaced the output"
ls "$T"/keep.* >/dev/null 2>&1 && fail "a failed run left a temporary file"

n=$(awk '$1 == "E"' "$T/clean/flat" "$T/lossy/flat" | wc -l)
ok "2 traces, $n FtraceEvents checked against gen_trace and trace-cmd; host events (typed sched_switch, __data_loc string), $nfix fixtures, clocks, options, errors"
finish
