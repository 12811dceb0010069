#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# t-tracecmd.sh: the trace.dat files tracedat_write() produces are read by the
# real reader, trace-cmd (3.1.6 on Debian 12), without a word on stderr:
# every event on its CPU, at its nanosecond, with its name and fields, and
# the lost events where the pages say; timestamps shown as seconds and
# microseconds although the clock is "[boot]"; report --cpu, --stat,
# --version (the VERSION option: hyptrace --version's line),
# dump --summary/--options/-v. trace-cmd's own rewrite of our file (convert
# to version 6) reads the same in hyptrace report, and its version 7 is
# refused with one line; so is a version 7 file trace-cmd assembles for an
# unrelated trace (trace-cmd restore), while its version 6 reads.
#
# Run by run_tests.sh (BUILD, HYPTRACE, GEN_TRACE set). Reports in KTAP
# (tests/include/ktap.sh).

. "$(dirname "$0")/lib.sh"

# agree TAG GEN_ARGS...: trace-cmd report -t equals gen_trace's expectation
agree() {
	tag=$1
	shift
	"$GEN" "$@" --expect "$T/$tag.exp" --expect-ns "$T/$tag.ns" \
		--summary "$T/$tag.sum" "$T/$tag.dat" >"$T/gen.log" 2>&1 ||
		die "gen_trace $*: $(tail -n 1 "$T/gen.log")"
	"$TC_REPORT" -t -i "$T/$tag.dat" >"$T/$tag.tc" 2>"$T/$tag.tcerr"
	rc=$?
	normalize <"$T/$tag.tc" >"$T/$tag.tcn"
	normalize <"$T/$tag.ns" >"$T/$tag.nsn"
	if [ $rc -ne 0 ] || [ -s "$T/$tag.tcerr" ]; then
		bad "$tag: trace-cmd report exit $rc: $(head -n 2 "$T/$tag.tcerr")"
	elif grep -q 'FAILED TO PARSE\|UNKNOWN EVENT\|UNPARSED' "$T/$tag.tcn"
	then
		bad "$tag: trace-cmd could not decode some events"
	elif cmp -s "$T/$tag.nsn" "$T/$tag.tcn"; then
		ok "$tag: trace-cmd shows the $(grep -c '^cpu' "$T/$tag.tcn") events and $(grep -c LOST "$T/$tag.tcn") loss marks"
	else
		bad "$tag: trace-cmd's events differ"
		diff "$T/$tag.nsn" "$T/$tag.tcn" | head -n 10
	fi
}

agree plain --cpus 2 --pairs 500
agree lossy --cpus 4 --pairs 3000 --pages 4 --drain-every 700 --seed 7
agree idle --cpus 3 --idle-cpu 1 --pairs 100
agree noclock --cpus 2 --pairs 100 --clock ''
if [ -f "$FIXTURES/hyp_enter.format" ]; then
	agree fixtures --cpus 2 --pairs 200 --events-dir "$FIXTURES"
fi

# Without -t: seconds.microseconds, not raw nanoseconds, for "[boot]"
"$TC_REPORT" -i "$T/plain.dat" 2>/dev/null | sed -n 2p >"$T/line"
if grep -q ' \[000\] *5\.000000: selftest: ' "$T/line"; then
	ok "clock [boot] shown as seconds.microseconds: $(sed 's/  */ /g' "$T/line")"
else
	bad "timestamp display: $(cat "$T/line")"
fi

# --cpu: one CPU's events
"$TC_REPORT" -t --cpu 2 -i "$T/lossy.dat" 2>/dev/null | normalize \
	>"$T/cpu2.tc"
grep -E '^(cpu2 |CPU:2 )' "$T/lossy.nsn" >"$T/cpu2.exp"
if cmp -s "$T/cpu2.exp" "$T/cpu2.tc"; then
	ok "report --cpu 2: $(wc -l <"$T/cpu2.tc") lines"
else
	bad "report --cpu 2 differs"
fi

# Tasks for KernelShark: a hypervisor event is task "el2" (its id the
# pid), hyp_exit "el1/el3", and the latency column is EL2's: no flags
# ("....." in trace-cmd 3.1's -l), not the -1s of missing fields
trace-cmd report -l -i "$T/plain.dat" >"$T/tasks" 2>"$T/tasks.err"
wrong=$(awk '/ hyp_enter: / && $1 != "el2-1" ||
	/ hyp_exit: / && $1 != "el1/el3-2" ||
	/ selftest: / && $1 != "el2-3" ||
	/ (hyp_enter|hyp_exit|selftest): / && $2 !~ /^[0-9]+\.\.\.\.\.$/ { n++ }
	/ (hyp_enter|hyp_exit|selftest): / { all++ }
	END { print all ? n + 0 : "none" }' "$T/tasks")
if [ ! -s "$T/tasks.err" ] && [ "$wrong" = 0 ]; then
	ok "tasks el2-1, el1/el3-2, el2-3 and no latency flags on $(grep -c ': ' "$T/tasks") events"
else
	bad "tasks or latency column: $wrong lines wrong: $(sed -n 2p "$T/tasks")"
fi

# --stat, dump: no complaint, and the metadata we meant
trace-cmd report --stat -i "$T/idle.dat" >"$T/stat" 2>"$T/stat.err"
sizes=$(awk '/^CPU[0-9]+ data recorded/ { c = $1 }
	     / bytes in size$/ { printf "%s=%s ", c, $1 }' "$T/stat")
if [ $? -eq 0 ] && [ ! -s "$T/stat.err" ] &&
   [ "$sizes" = "CPU0=8192 CPU1=0 CPU2=8192 " ]; then
	ok "report --stat: data for CPUs 0 and 2, none for idle CPU 1"
else
	bad "report --stat: $sizes $(head -n 3 "$T/stat.err")"
fi
trace-cmd dump --summary -i "$T/lossy.dat" >"$T/sum" 2>"$T/sum.err"
if [ $? -eq 0 ] && [ ! -s "$T/sum.err" ] &&
   grep -q '6[[:space:]]*\[Version\]' "$T/sum" &&
   grep -q '4096[[:space:]]*\[Page size, bytes\]' "$T/sum" &&
   grep -q '\[Events format, 1 systems\]' "$T/sum" &&
   grep -q '4 \[CPUs with tracing data\]' "$T/sum" &&
   grep -q '\[boot\]' "$T/sum"; then
	ok "dump --summary: version 6, 4096-byte pages, 1 system, 4 CPUs, [boot]"
else
	bad "dump --summary: $(cat "$T/sum.err" "$T/sum" | head -n 20)"
fi
trace-cmd dump --options -i "$T/plain.dat" >"$T/opt" 2>"$T/opt.err"
if [ $? -eq 0 ] && [ ! -s "$T/opt.err" ] &&
   grep -q 'Option TRACECLOCK' "$T/opt" &&
   grep -q '^1 0 0 \[multiplier, shift, offset\]' "$T/opt"; then
	ok "dump --options: TRACECLOCK [boot], TSC2NSEC 1 0 0"
else
	bad "dump --options: $(head -n 10 "$T/opt.err" "$T/opt")"
fi
# The VERSION option: which tool wrote the file, as hyptrace --version
want=$("$HYPTRACE" --version)
# (after the "cpus=N" line every report begins with)
got=$(trace-cmd report --version -i "$T/plain.dat" 2>"$T/ver.err" | sed '/^cpus=/d')
if [ -n "$want" ] && [ "$got" = "$want" ] && [ ! -s "$T/ver.err" ]; then
	ok "report --version: '$got', the writer's hyptrace --version"
else
	bad "report --version: '$got', not '$want'; $(head -n 2 "$T/ver.err")"
fi
trace-cmd dump -v -i "$T/lossy.dat" >"$T/v" 2>"$T/v.err"
if [ $? -eq 0 ] && [ ! -s "$T/v.err" ]; then
	ok "dump -v validates the file"
else
	bad "dump -v: $(head -n 3 "$T/v.err")"
fi

# trace-cmd's own rewrites of our file
trace-cmd convert --file-version 6 -i "$T/lossy.dat" -o "$T/tc6.dat" \
	>"$T/conv.log" 2>&1 || bad "convert to version 6: $(tail -n 1 "$T/conv.log")"
"$HYPTRACE" report "$T/tc6.dat" >"$T/tc6.out" 2>"$T/tc6.err"
if [ $? -eq 0 ] && [ ! -s "$T/tc6.err" ] && cmp -s "$T/lossy.exp" "$T/tc6.out"
then
	ok "trace-cmd's version 6 rewrite reads the same in hyptrace report"
else
	bad "hyptrace report of trace-cmd's version 6: $(head -n 1 "$T/tc6.err")"
fi
trace-cmd convert --file-version 7 --compression zstd -i "$T/lossy.dat" \
	-o "$T/tc7.dat" >"$T/conv.log" 2>&1 ||
	bad "convert to version 7: $(tail -n 1 "$T/conv.log")"
"$TC_REPORT" -t -i "$T/tc7.dat" 2>"$T/tc7.err" | normalize >"$T/tc7.tcn"
if [ ! -s "$T/tc7.err" ] && cmp -s "$T/lossy.nsn" "$T/tc7.tcn"; then
	ok "trace-cmd's compressed version 7 rewrite reports the same"
else
	bad "version 7 rewrite reports differently"
fi
if one_line_exit "$T/v7.err" 1 "$HYPTRACE" report "$T/tc7.dat" &&
   grep -q 'version 7' "$T/v7.err"; then
	ok "version 7 refused: $(cat "$T/v7.err")"
else
	bad "version 7: want exit 1 and one line naming the version"
fi

# An unrelated trace that trace-cmd assembles itself (restore): sched and
# irq events with common_pid, an ftrace event, saved cmdlines, kallsyms
fs=$T/fs/events
mkdir -p "$fs/ftrace/function" "$fs/sched/sched_switch" \
	"$fs/irq/irq_handler_entry"
"$GEN" --dump-events "$T/gen-events" >/dev/null 2>&1
cp "$T/gen-events/header_page" "$T/gen-events/header_event" "$fs/"
common='	field:unsigned short common_type;	offset:0;	size:2;	signed:0;
	field:unsigned char common_flags;	offset:2;	size:1;	signed:0;
	field:unsigned char common_preempt_count;	offset:3;	size:1;	signed:0;
	field:int common_pid;	offset:4;	size:4;	signed:1;
'
printf 'name: function\nID: 100\nformat:\n%s\n%s\n\nprint fmt: " %%ps <-- %%ps", (void *)REC->ip, (void *)REC->parent_ip\n' \
	"$common" '	field:unsigned long ip;	offset:8;	size:8;	signed:0;
	field:unsigned long parent_ip;	offset:16;	size:8;	signed:0;' \
	>"$fs/ftrace/function/format"
printf 'name: sched_switch\nID: 1\nformat:\n%s\n%s\n\nprint fmt: "prev_comm=%%s prev_pid=%%d ==> next_comm=%%s", REC->prev_comm, REC->prev_pid, REC->next_comm\n' \
	"$common" '	field:char prev_comm[16];	offset:8;	size:16;	signed:0;
	field:pid_t prev_pid;	offset:24;	size:4;	signed:1;
	field:char next_comm[16];	offset:28;	size:16;	signed:0;' \
	>"$fs/sched/sched_switch/format"
printf 'name: irq_handler_entry\nID: 2\nformat:\n%s\n%s\n\nprint fmt: "irq=%%d name=%%s", REC->irq, __get_str(name)\n' \
	"$common" '	field:int irq;	offset:8;	size:4;	signed:1;
	field:__data_loc char[] name;	offset:12;	size:4;	signed:0;' \
	>"$fs/irq/irq_handler_entry/format"
printf '1 init\n' >"$T/fs/saved_cmdlines"
: >"$T/fs/printk_formats"
# its CPU data: our pages, read as sched/irq events
off=$(trace-cmd dump --flyrecord -i "$T/plain.dat" 2>/dev/null |
	awk '/\[offset, size of cpu 0\]/ { print $1 / 4096, $2 / 4096 }')
set -- $off
dd if="$T/plain.dat" of="$T/cpu0.raw" bs=4096 skip="${1:-1}" count="${2:-1}" \
	2>/dev/null
(cd "$T" && trace-cmd restore -c -t fs -o partial.dat >restore.log 2>&1 &&
	trace-cmd restore -i partial.dat -o unrelated7.dat cpu0.raw \
	>>restore.log 2>&1 &&
	trace-cmd convert --file-version 6 -i unrelated7.dat \
	-o unrelated6.dat >>restore.log 2>&1)
if [ -s "$T/unrelated7.dat" ] && [ -s "$T/unrelated6.dat" ]; then
	if one_line_exit "$T/u7.err" 1 "$HYPTRACE" report "$T/unrelated7.dat"
	then
		ok "trace-cmd's version 7 unrelated trace refused: $(cat "$T/u7.err")"
	else
		bad "unrelated version 7: want exit 1 and one line"
	fi
	# one line per event, [000] or an unknown one's; values may be binary
	n=$("$TC_REPORT" -i "$T/unrelated6.dat" 2>/dev/null |
		grep -a -c -e ' \[000\] ' -e '^\[UNKNOWN EVENT\]')
	"$HYPTRACE" report "$T/unrelated6.dat" >"$T/u6.out" 2>"$T/u6.err"
	if [ $? -eq 0 ] && [ ! -s "$T/u6.err" ] &&
	   [ "$(wc -l <"$T/u6.out")" -eq "$n" ] && [ "$n" -gt 0 ] &&
	   grep -q '^\[000\]	 *[0-9.]*: sched_switch prev_comm=' "$T/u6.out"
	then
		ok "trace-cmd's version 6 unrelated trace: $n events, fields by name"
	else
		bad "unrelated version 6: exit/lines differ ($n events)"
	fi
else
	bad "trace-cmd restore: $(tail -n 2 "$T/restore.log")"
fi

finish
