#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of 59-hostile-page.sh: hostile_page.ko plants its
# PATTERNS (its patterns=) into pages of every CPU, and the readers read
# them; each says how it ended as "@NAME=..." lines.
#
# rounds: for each ROUND, in the buffer trace-on.sh sets up, N selftest
#	events per CPU, the plant, a marker event per CPU after it (ids
#	CPU * 100000 + 99999), then the readers: raw (raw_check drains
#	every CPU's trace_pipe_raw) or text (tracing off, trace, then
#	trace_pipe until the four markers); last the damaged pages counted
#	in per_cpu/cpuN/stats (@ROUND_damaged) and each CPU's ids in order
#	(@ROUND_order_CPU).
# lastboot: on the first boot (no LAST_BOOT_DIR), N selftest events per
#	CPU, then a panic; on the second, the plant into the last boot's
#	kept pages, every CPU's trace_pipe_raw drained, trace read when
#	READ_TRACE is 1 (the fallback's, walked by the module), trace_pipe
#	until every CPU's last event; the damage and order as above.
#
# usage: 59-hostile-page.sh rounds N PATTERNS ROUND...
#        59-hostile-page.sh lastboot N PATTERNS LAST_BOOT_DIR READ_TRACE
#        (with /root/trace-on.sh, see lib.sh)
mode=$1
n_events=$2
patterns=$3
shift 3

# st: the damaged pages all CPUs' stats count
st() {
	for c in 0 1 2 3; do sed -n "s/^damaged pages: //p" per_cpu/cpu$c/stats 2>/dev/null; done |
		awk '{ s += $1 } END { print s + 0 }'
}

# pipe_until PATTERN: trace_pipe into /tmp/tp.txt until 4 lines match
# PATTERN (at most 120 s), then killed; "@...=" of what it read, how many
# matched and its state after the kill (gone: it ended)
pipe_until() {
	: > /tmp/tp.txt
	cat trace_pipe >> /tmp/tp.txt &
	tp=$!
	n=0
	while [ "$(grep -cE "$1" /tmp/tp.txt)" -lt 4 ] && [ $n -lt 600 ]; do sleep 0.2; n=$((n + 1)); done
	kill $tp
	wait $tp
	state=$(sed -n "s/^State:[[:space:]]*\([A-Z]\).*/\1/p" /proc/$tp/status 2> /dev/null)
	echo "$(grep -c 'selftest id=' /tmp/tp.txt),$(grep -cE "$1" /tmp/tp.txt),${state:-gone}"
}

# pipe_ids: each CPU's ids trace_pipe read, into /tmp/idsCPU.txt
pipe_ids() {
	for c in 0 1 2 3; do sed -n "s/.*selftest id=\([0-9]*\)$/\1/p" /tmp/tp.txt | awk -v c=$c '$1 >= c * 100000 && $1 < (c + 1) * 100000' > /tmp/ids$c.txt; done
}

# damage_and_order NAME: @NAME_damaged since d0, @NAME_order_CPU of the
# ids in /tmp/idsCPU.txt: out of order, distinct, all
damage_and_order() {
	echo "@$1_damaged=$(($(st) - d0))"
	for c in 0 1 2 3; do echo "@$1_order_$c=$(sort -n -c /tmp/ids$c.txt 2>&1 | grep -c .),$(sort -u /tmp/ids$c.txt | wc -l),$(wc -l < /tmp/ids$c.txt)"; done
}

# round ROUND: one round in the live buffer
round() {
	r=$1
	# In this shell: it leaves us in the trace directory, under set -e
	# shellcheck source=/dev/null # trace_on_script's commands (tests/boot/lib.sh)
	. /root/trace-on.sh
	set +e
	d0=$(st)
	for c in 0 1 2 3; do /root/write_events $c $((c * 100000 + 1)) "$n_events" >/dev/null || echo "@${r}_fill_failed"; done
	insmod /lib/modules/hyptrace/hostile_page.ko patterns="$patterns"
	echo "@${r}_plant_rc=$?"
	rmmod hostile_page
	for c in 0 1 2 3; do /root/write_events $c $((c * 100000 + 99999)) 1 >/dev/null; done
	case $r in
	raw)
		for c in 0 1 2 3; do
			timeout 120 /root/raw_check drain $c > /tmp/raw$c.txt
			echo "@raw_drain_$c=$?,$(grep -c . /tmp/raw$c.txt),$(sed -n '$s/id //p' /tmp/raw$c.txt)"
			sed 's/^id //' /tmp/raw$c.txt > /tmp/ids$c.txt
		done
		;;
	*)
		echo 0 > tracing_on
		timeout 120 cat trace > /tmp/trace.txt
		echo "@${r}_trace=$?,$(grep -c 'selftest id=' /tmp/trace.txt),$(grep -cE 'selftest id=[1-3]?99999$' /tmp/trace.txt)"
		echo "@${r}_pipe=$(pipe_until 'selftest id=[1-3]?99999$')"
		pipe_ids
		;;
	esac
	damage_and_order "$r"
}

# lastboot LAST_BOOT_DIR READ_TRACE: the last boot's case, both boots
lastboot() {
	last="selftest id=([1-3]0)?$n_events\$"
	if [ ! -d "$1" ]; then
		echo "@boot=1"
		# shellcheck source=/dev/null # trace_on_script's commands (tests/boot/lib.sh)
		. /root/trace-on.sh
		for c in 0 1 2 3; do /root/write_events $c $((c * 100000 + 1)) "$n_events" >/dev/null || exit 1; done
		# shellcheck source=tests/boot/guest/crash.sh
		. /root/crash.sh
	fi
	echo "@boot=2"
	set +e
	cd "$1" || exit 1
	d0=$(st)
	insmod /lib/modules/hyptrace/hostile_page.ko last_boot=1 patterns="$patterns"
	echo "@lastboot_plant_rc=$?"
	rmmod hostile_page
	for c in 0 1 2 3; do
		timeout 120 cat per_cpu/cpu$c/trace_pipe_raw > /tmp/lbraw$c
		echo "@lastboot_raw_$c=$?,$(wc -c < /tmp/lbraw$c)"
	done
	if [ "$2" = 1 ]; then
		timeout 120 cat trace > /tmp/trace.txt
		echo "@lastboot_trace=$?,$(grep -c 'selftest id=' /tmp/trace.txt),$(grep -cE "$last" /tmp/trace.txt)"
	fi
	echo "@lastboot_pipe=$(pipe_until "$last")"
	pipe_ids
	damage_and_order lastboot
}

case $mode in
rounds)
	for r in "$@"; do
		round "$r"
	done
	;;
lastboot)
	lastboot "$@"
	;;
esac
