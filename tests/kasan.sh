#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make kasan: the tests that attack what the hypervisor and hyptrace.ko
# share (57-fuzz: hypercalls with random arguments; 58-scribble: random
# writes into the shared pages while the module reads them; 59-hostile-page:
# the exact hostile records, live and in the last boot's pages; 89-last-boot:
# the last boot's files after a panic), and two tracing tests as a baseline
# (80-trace-events, 84-record), under the guest
# kernel with KASAN and lockdep that 'make kasan-build' makes in build/kasan
# (boot/kernel.config plus boot/kasan.config). Then every boot's console is
# read for what those checkers print: KASAN reports, lockdep and
# atomic-sleep splats, any other WARNING, BUG or oops. Every boot's console
# counts, the reboots' (NAME-CASE.log.bootN) too.
#
# Some boots crash on purpose (sysrq c, to leave a last boot behind). The
# guest says so first, on a line of its own: "@deliberate_crash". What the
# crash prints after it (the oops, its call trace, the panic) is counted
# apart as deliberate and fails nothing; a KASAN or lockdep report there
# still does, and so does anything before the line.
#
#   HYPTRACE_BUILD=build/kasan tests/kasan.sh [TEST...]    (make kasan)
#
# One line per test and a summary; the reports themselves (their first
# lines and call traces) follow, and all of it lands in
# $HYPTRACE_BUILD/kasan-report.txt. Exits 1 if a test failed or any console
# holds a report.
#
# KASAN_BOOT_TIMEOUT (default 1200 s) is the tests' BOOT_TIMEOUT: room for
# KASAN's shadow checks and lockdep under TCG and for bigger FUZZ_CALLS (a
# million calls took 328 s), while a hung guest still ends in 20 minutes.
# FUZZ_CALLS, FUZZ_HOSTILE_CALLS and SCRIBBLE_SECONDS pass through to the
# tests (defaults: those of make test).
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"

TESTS=(57-fuzz 58-scribble 59-hostile-page 89-last-boot 80-trace-events 84-record)
[ $# = 0 ] || TESTS=("$@")
LOGS=$HYPTRACE_BUILD/test-logs
REPORT=$HYPTRACE_BUILD/kasan-report.txt

# What starts a report on the console, by kind. KASAN's own line is
# "BUG: KASAN: <kind> in <function>", or "KASAN: null-ptr-deref in range"
# under an oops. "lockdep" is lockdep and the other debug checks
# boot/kasan.config turns on (PROVE_RCU, DEBUG_ATOMIC_SLEEP, DEBUG_LIST):
# "WARNING: possible circular locking dependency detected", "BUG: sleeping
# function called from invalid context", "BUG: Invalid wait context",
# "list_add corruption", a WARN in kernel/locking/. "other" is any other
# warning, BUG, oops, panic or stall.
RE_KASAN='KASAN: '
RE_LOCKDEP='(WARNING|BUG): (possible (circular|recursive|irq)|inconsistent lock|suspicious RCU|bad unlock|held lock|lock held|.*-safe -> .*-unsafe|sleeping function|scheduling while atomic|Invalid wait context|spinlock|rwlock|workqueue leaked|MAX_LOCKDEP)|WARNING: CPU: .* at kernel/locking/|DEBUG_LOCKS_WARN_ON|list_[a-z_]+ corruption'
RE_OTHER='WARNING:|BUG:|Oops|Internal error|Unable to handle kernel|Kernel panic|hyptrace: PANIC|detected stall|blocked for more than|soft lockup'

# scan LOG: one line per report in LOG, "KIND LINENO TEXT". Header lines
# within 15 lines of a report's first are one report (an oops prints "Unable to
# handle", "KASAN: null-ptr-deref" and "Internal error" together), of the
# gravest kind among them and named by its KASAN line if it has one. A call
# trace with no header in the 200 lines above it (a stack dumped on its
# own, or a header this does not know) is a report too. After a line
# "@deliberate_crash", a report of kind "other" is of kind "deliberate".
scan() {
	awk -v k="$RE_KASAN" -v l="$RE_LOCKDEP" -v o="$RE_OTHER" '
		function flush() {
			if (kind != "")
				print kind, at, text
			kind = ""
		}
		{
			sub(/\r$/, "")
			if (/@deliberate_crash/) {
				flush()
				deliberate = 1
				next
			}
			if ($0 ~ k)
				this = "kasan"
			else if ($0 ~ l)
				this = "lockdep"
			else if ($0 ~ o || (/Call trace:/ && (last == 0 || NR - last > 200)))
				this = deliberate ? "deliberate" : "other"
			else
				next
			if (kind != "" && NR - at <= 15) {
				if (rank[this] > rank[kind]) {
					kind = this
					text = $0
				}
			} else {
				flush()
				kind = this
				at = NR
				text = $0
			}
			last = NR
		}
		END { flush() }
		BEGIN {
			rank["deliberate"] = 0; rank["other"] = 1
			rank["lockdep"] = 2; rank["kasan"] = 3
		}
	' "$1"
}

# excerpt LOG LINENO: the report at LINENO, up to its first call-trace
# frames: enough to see what and where, the log has the rest.
excerpt() {
	awk -v n="$2" '
		NR < n { next }
		{ sub(/\r$/, ""); print "      " $0 }
		/Call trace:/ && !frames { frames = 1; next }
		frames && ++frames > 12 { exit }
		NR > n + 40 || /---\[ end trace|^(\[[ 0-9.]*\] )?=====/ { exit }
	' "$1"
}

main() {
	local t start secs rc line test_verdict kasan lockdep other f hits
	local kind n text deliberate crashes
	local total_kasan=0 total_lockdep=0 total_other=0 failed=0 where=()
	local verdicts=() details=()

	[ -f "$HYPTRACE_BUILD/kernel.env" ] ||
		die "$HYPTRACE_BUILD/kernel.env missing: run 'make kasan'"
	local release
	release=$(sed -n 's/^KERNEL_VERSION=//p' "$HYPTRACE_BUILD/kernel.env")
	# Never report a clean run of the wrong kernel.
	[[ $release == *-kasan ]] ||
		die "$HYPTRACE_BUILD has kernel $release, not a -kasan one (HYPTRACE_BUILD=build/kasan, or make kasan)"
	mkdir -p "$LOGS"

	export BOOT_TIMEOUT=${KASAN_BOOT_TIMEOUT:-1200}
	# Every KASAN report, not only the first: by default KASAN reports
	# once and then stays quiet.
	export HYPTRACE_TEST_QEMU_ARGS="${HYPTRACE_TEST_QEMU_ARGS:-} --append kasan_multi_shot"

	step "kasan: ${TESTS[*]} under Linux $release (boot timeout ${BOOT_TIMEOUT}s each)"
	for t in "${TESTS[@]}"; do
		[ -f "$HYPTRACE_TOP/tests/boot/$t.sh" ] || die "no test tests/boot/$t.sh"
		rm -f "$LOGS/$t"-*.log "$LOGS/$t"-*.log.boot*
		step "kasan: $t"
		start=$SECONDS
		rc=0
		run_quiet "$t" "$LOGS/$t.out" bash "$HYPTRACE_TOP/tests/boot/$t.sh" || rc=1
		secs=$((SECONDS - start))
		line=$(grep -E '^(PASS|FAIL): ' "$LOGS/$t.out" | tail -n 1 || true)
		[ -n "$line" ] || line="FAIL: exit $rc, no verdict: $(tail -n 1 "$LOGS/$t.out")"
		[ "$rc" = 0 ] || [[ $line == FAIL:* ]] || line="FAIL: exit $rc after: $line"
		test_verdict=${line%%:*}

		kasan=0 lockdep=0 other=0 deliberate=0
		for f in "$LOGS/$t"-*.log "$LOGS/$t"-*.log.boot*; do
			[ -f "$f" ] || continue
			hits=$(scan "$f")
			[ -n "$hits" ] || continue
			kasan=$((kasan + $(grep -c '^kasan ' <<<"$hits" || true)))
			lockdep=$((lockdep + $(grep -c '^lockdep ' <<<"$hits" || true)))
			other=$((other + $(grep -c '^other ' <<<"$hits" || true)))
			deliberate=$((deliberate + $(grep -c '^deliberate ' <<<"$hits" || true)))
			while read -r kind n text; do
				[ "$kind" != deliberate ] || continue
				details+=("$kind in $t, $f:$n: $text")
				details+=("$(excerpt "$f" "$n")")
			done <<<"$hits"
		done
		total_kasan=$((total_kasan + kasan))
		total_lockdep=$((total_lockdep + lockdep))
		total_other=$((total_other + other))
		crashes=
		[ "$deliberate" = 0 ] ||
			crashes=" (and $deliberate in deliberate crashes)"
		if [ "$test_verdict" = PASS ] && [ $((kasan + lockdep + other)) = 0 ]; then
			verdicts+=("$(printf 'PASS  %-16s %5ss  no KASAN, lockdep or other reports%s; test: %s' \
				"$t" "$secs" "$crashes" \
				"${line#PASS: }")")
		else
			failed=$((failed + 1))
			where+=("$t")
			verdicts+=("$(printf 'FAIL  %-16s %5ss  KASAN %s, lockdep %s, other %s; test: %s (output %s)' \
				"$t" "$secs" "$kasan" "$lockdep" "$other" "$line" "$LOGS/$t.out")")
		fi
		note "${verdicts[-1]}"
	done

	{
		echo "kasan: Linux $release, $(date -u +%Y-%m-%dT%H:%MZ)"
		printf '%s\n' "${verdicts[@]}"
		if [ ${#details[@]} -gt 0 ]; then
			echo "Reports (console logs in $LOGS):"
			printf '%s\n' "${details[@]}"
		fi
		printf 'kasan: %s of %s tests clean; %s KASAN reports, %s lockdep reports, %s other warnings%s\n' \
			$((${#TESTS[@]} - failed)) ${#TESTS[@]} "$total_kasan" "$total_lockdep" \
			"$total_other" "${where[*]:+; not clean: ${where[*]}}"
	} | tee "$REPORT"
	[ "$failed" = 0 ]
}

main "$@"
