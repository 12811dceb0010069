#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The records that once hung the host's readers of the shared data pages
# (issue 21), planted by tests/modules/hostile_page.ko into the live
# buffer's pages of every CPU: a type-0 record whose array[0] is
# 0xfffffffc..0xffffffff (a 32-bit size wraps to 0..3 bytes), a commit far
# past the page, a zero-length record, a padding record 0x7ffffff0 bytes
# long, a time extend cut by the commit. Then every reader reads them:
#
#   remote	the guest kernel, with trace_remote:
#		raw: per_cpu/cpuN/trace_pipe_raw drained on every CPU
#		(hyptrace.ko walks its copy of each page);
#		text: trace_remote's own readers: tracing off (the module
#		walks and cuts every page then, the writer stopped), trace,
#		then trace_pipe (each page a swap hands it is walked and cut
#		first)
#   lastboot	the last boot's kept pages, after a panic (see below)
#   lastboot-fallback
#		the same through the fallback module's last_boot/ files
#   fallback	the same kernel, with hyptrace.ko built as for a kernel
#		without trace_remote (its own files in debugfs): text only,
#		trace then trace_pipe, from the module's copies of the pages
#		(raw_check, the raw round's reader, knows only the remote)
#
# Each reader must end (a reader that never returns leaves the guest
# command hanging, and the boot times out), nothing may oops or warn,
# every planted page must be counted as damaged once (per_cpu/cpuN/stats,
# "damaged pages") and said in hyptrace.ko's one rate-limited line, and the
# events before and after the damage still read, in order.
#
# HOSTILE_CASES="remote fallback" and HOSTILE_ROUNDS="raw text" choose
# what runs, HOSTILE_PATTERNS which records are planted (hostile_page.ko's
# patterns=); HOSTILE_MODULE and HOSTILE_FALLBACK_MODULE name a hyptrace.ko
# to boot instead of this tree's (an older one, to see it hang).
# shellcheck source=tests/boot/lib.sh
. "$(dirname "$0")/lib.sh"

N=1500			# events per CPU: about 9 pages of 16
RC=$HYPTRACE_BUILD/guest/raw_check
WE=$HYPTRACE_BUILD/guest/write_events
[ -x "$RC" ] && [ -x "$WE" ] || fail "raw_check or write_events not built: run make"
CASES=${HOSTILE_CASES:-remote fallback lastboot lastboot-fallback}
REMOTE_LB=/sys/kernel/tracing/remotes/hypervisor_last_boot
FALLBACK_LB=/sys/kernel/debug/hyptrace/last_boot
ROUNDS=${HOSTILE_ROUNDS:-raw text}
PATTERNS=${HOSTILE_PATTERNS:-31}	# hostile_page.ko's patterns=, all five

# The lastboot case: the first boot traces N events per CPU and panics;
# the second plants into the last boot's kept pages, then drains every
# CPU's trace_pipe_raw (the module's copies, up to the commits checked at
# load) and reads trace_pipe (each page a swap hands it is cut first).
# Not trace: trace_remote's non-consuming reader walks the kept pages in
# place, with no callback of the module's after the load, when they were
# checked and cut; what is planted later reaches it unchecked.
#
# The guest side of both: guest/59-hostile-page.sh

# count_of LINE PATTERN: how many PATTERN records hostile_page's LINE says
count_of() {
	sed -n "s/.* $2=\([0-9]*\).*/\1/p" <<<"$1"
}

# check_lastboot CASE: the second boot's readers ended, the damage was
# counted
check_lastboot() {
	local line planted damaged inside c v=()
	expect_line '^@boot=2' "a second boot after the panic"
	line=$(grep -a -o 'hostile_page: result .*' "$BOOT_LOG" | tail -n 1 | sed 's/\r$//')
	[ "$(value lastboot_plant_rc)" = 0 ] || fail "$1: hostile_page.ko failed: $line"
	planted=$(sed -n 's/.*planted=\([0-9]*\).*/\1/p' <<<"$line")
	damaged=$(value lastboot_damaged)
	[ "$planted" -ge 5 ] || fail "$1: only $planted pages planted: $line"
	# The readers go by the commits checked at load: a commit moved since
	# (the commit and extend records) is no damage to them, but the
	# records inside those commits are, for every reader, remote or not
	inside=$(($(count_of "$line" wrap) + $(count_of "$line" zero) + $(count_of "$line" padding)))
	[ "$damaged" -ge "$inside" ] ||
		fail "$1: $damaged pages counted as damaged, $inside planted inside the commits checked at load"
	for c in 0 1 2 3; do
		IFS=, read -r -a v <<<"$(value "lastboot_raw_$c")"
		[ "${v[0]}" = 0 ] || fail "$1: cat per_cpu/cpu$c/trace_pipe_raw: exit ${v[0]}"
		[ "${v[1]}" -gt 0 ] || fail "$1: CPU $c's trace_pipe_raw gave nothing"
		IFS=, read -r -a v <<<"$(value "lastboot_order_$c")"
		[ "${v[0]}" = 0 ] && [ "${v[1]}" = "${v[2]}" ] && [ "${v[2]}" -gt 1 ] ||
			fail "$1: CPU $c: ${v[2]} events read by trace_pipe, ${v[1]} distinct, ${v[0]} out of order"
	done
	IFS=, read -r -a v <<<"$(value lastboot_pipe)"
	[ "${v[1]}" = 4 ] || fail "$1: trace_pipe read ${v[1]} of the 4 CPUs' last events"
	[ "${v[2]}" = gone ] || fail "$1: trace_pipe did not end when killed (state ${v[2]})"
	if [ "$1" = lastboot-fallback ]; then
		IFS=, read -r -a v <<<"$(value lastboot_trace)"
		[ "${v[0]}" = 0 ] || fail "$1: cat trace: exit ${v[0]} (124: it never ended)"
		[ "${v[2]}" = 4 ] || fail "$1: trace shows ${v[2]} of the 4 CPUs' last events"
	fi
	summary+="; $1: $planted planted in the kept pages ($inside inside the commits checked at load), $damaged counted, $(value lastboot_order_0 | cut -d, -f3) of $N read on CPU 0"
}

# The fallback front end, built against the guest kernel: hyptrace.ko as
# for a kernel without trace_remote (as scripts/check-circles.sh builds it)
fallback_module() {
	local log=$TEST_LOGS/$TEST_NAME-fallback-build.log
	bash "$HYPTRACE_TOP/scripts/build-host-driver.sh" --fallback \
		"$HYPTRACE_BUILD/fallback-module" 2>"$log" ||
		fail "building the fallback hyptrace.ko: $(tail -n 1 "$log")"
}

# check_round CASE ROUND: the readers ended, the damage was counted, and
# what they read is in order
check_round() {
	local r=$2 line planted damaged c v=()
	line=$(grep -a -o 'hostile_page: result .*' "$BOOT_LOG" | sed -n "$(($3))p" | sed 's/\r$//')
	[ -n "$line" ] || fail "$1 $r: no hostile_page result line"
	[ "$(value "${r}_plant_rc" | grep -o '^[0-9]*')" = 0 ] || fail "$1 $r: hostile_page.ko failed: $line"
	planted=$(sed -n 's/.*planted=\([0-9]*\).*/\1/p' <<<"$line")
	damaged=$(value "${r}_damaged" | grep -o '^-\{0,1\}[0-9]*')
	[ "$planted" -ge 5 ] || fail "$1 $r: only $planted pages planted: $line"
	[ "$damaged" = "$planted" ] ||
		fail "$1 $r: $damaged pages counted as damaged, $planted planted"
	if [ "$r" = raw ]; then
		for c in 0 1 2 3; do
			IFS=, read -r -a v <<<"$(value "raw_drain_$c")"
			[ "${v[0]}" = 0 ] || fail "$1 raw: draining CPU $c: exit ${v[0]}"
			[ "${v[2]}" = $((c * 100000 + 99999)) ] ||
				fail "$1 raw: CPU $c's last event ${v[2]}, want its marker $((c * 100000 + 99999))"
		done
	else
		IFS=, read -r -a v <<<"$(value "${r}_trace")"
		[ "${v[0]}" = 0 ] || fail "$1 $r: cat trace: exit ${v[0]} (124: it never ended)"
		[ "${v[2]}" = 4 ] || fail "$1 $r: trace shows ${v[2]} of the 4 markers"
		IFS=, read -r -a v <<<"$(value "${r}_pipe")"
		[ "${v[1]}" = 4 ] || fail "$1 $r: trace_pipe read ${v[1]} of the 4 markers"
		[ "${v[2]}" = gone ] || fail "$1 $r: trace_pipe did not end when killed (state ${v[2]})"
	fi
	for c in 0 1 2 3; do
		IFS=, read -r -a v <<<"$(value "${r}_order_$c")"
		[ "${v[0]}" = 0 ] || fail "$1 $r: CPU $c's events out of order"
		[ "${v[1]}" = "${v[2]}" ] || fail "$1 $r: CPU $c: ${v[2]} events read, ${v[1]} distinct"
		[ "${v[2]}" -gt 1 ] && [ "${v[2]}" -le $((N + 1)) ] ||
			fail "$1 $r: CPU $c: ${v[2]} events read of $N + 1"
	done
	summary+="; $1 $r: $planted planted ($(sed 's/^.*planted=[0-9]* //; s/ cpu0=.*//' <<<"$line")), $damaged counted, $(value "${r}_order_0" | cut -d, -f3) of $((N + 1)) read on CPU 0"
}

BOOT_TIMEOUT=${BOOT_TIMEOUT:-600}
summary=
for case in $CASES; do
	if [ "${case%-fallback}" = lastboot ]; then
		args=()
		lb=$REMOTE_LB
		if [ "$case" = lastboot-fallback ]; then
			args=(--modules "${HOSTILE_FALLBACK_MODULE:-$(fallback_module)}")
			lb=$FALLBACK_LB
		elif [ -n "${HOSTILE_MODULE:-}" ]; then
			args=(--modules "$HOSTILE_MODULE")
		fi
		boot "$case" --reboots 1 --add "$RC" --add "$WE" \
			"${args[@]+"${args[@]}"}" --add "$(trace_on_file 64 selftest)" \
			--add "$GUEST_DIR/59-hostile-page.sh" --add "$GUEST_DIR/crash.sh" \
			--cmd "sh /root/59-hostile-page.sh lastboot $N $PATTERNS $lb $([ "$lb" = "$FALLBACK_LB" ] && echo 1 || echo 0)"
		expect_ok
		# The second boot alone: the first one panicked on purpose
		awk 'seen; /hyptrace: SYSTEM_RESET from CPU/ {seen = 1}' "$BOOT_LOG" \
			>"$BOOT_LOG.boot2"
		BOOT_LOG=$BOOT_LOG.boot2
		expect_no_kernel_trouble
		check_lastboot "$case"
		expect_line 'hyptrace: CPU [0-9]+: [a-z_ ]+: damaged page, ' "the damage line"
		continue
	fi
	args=()
	rounds=$ROUNDS
	if [ "$case" = fallback ]; then
		args=(--modules "${HOSTILE_FALLBACK_MODULE:-$(fallback_module)}")
		rounds=${ROUNDS//raw/}
	elif [ -n "${HOSTILE_MODULE:-}" ]; then
		args=(--modules "$HOSTILE_MODULE")
	fi
	boot "$case" --add "$RC" --add "$WE" "${args[@]+"${args[@]}"}" \
		--add "$(trace_on_file 64 selftest)" --add "$GUEST_DIR/59-hostile-page.sh" \
		--cmd "sh /root/59-hostile-page.sh rounds $N $PATTERNS $rounds"
	expect_ok
	expect_no_kernel_trouble
	if [ "$case" = fallback ]; then
		expect_line '^hyptrace-guest: tracing ready: /sys/kernel/debug/hyptrace' \
			"the fallback module's own files"
	fi
	i=0
	for r in $rounds; do
		i=$((i + 1))
		check_round "$case" "$r" "$i"
	done
	expect_line 'hyptrace: CPU [0-9]+: [a-z_ ]+: damaged page, ' "the damage line"
	expect_healthy
done
pass "every reader ended${summary}"
