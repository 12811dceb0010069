# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# KTAP reporting for the shell tests (tests/tools/t-*.sh), as
# tests/include/check.h reports for the C ones and kselftest prints it
# (the kernel's Documentation/dev-tools/ktap.rst):
#
#	TAP version 13
#	ok 1 garbage: hyptrace listen: garbage on the control port
#	not ok 2 corrupt # exit 1, stderr: ...
#	1..2
#	# Totals: pass:1 fail:1
#
# The plan comes last, as TAP allows, so that a script need not count its
# checks first. Sourced under dash (sh), so POSIX sh only. Gives:
#   ok MSG       a check that held
#   bad MSG      a check that did not (MSG its reason)
#   finish       the plan and the totals; exit 1 if any check failed
#   die MSG      the test cannot go on: a failed check, then finish
# and uses $NAME (the test's name) in die's line.

ktap_n=0
ktap_pass=0
ktap_fail=0

# ktap_line WORDS MSG: one test point; "#" and line breaks in MSG would
# end the description or the line early, so they become spaces
ktap_line() {
	[ "$ktap_n" -gt 0 ] || echo "TAP version 13"
	ktap_n=$((ktap_n + 1))
	echo "$1 $ktap_n $(printf '%s' "$2" | tr '#\n' '  ')"
}

ok() {
	ktap_pass=$((ktap_pass + 1))
	ktap_line ok "$*"
}

bad() {
	ktap_fail=$((ktap_fail + 1))
	ktap_line "not ok" "$*"
}

finish() {
	[ "$ktap_n" -gt 0 ] || echo "TAP version 13"
	echo "1..$ktap_n"
	echo "# Totals: pass:$ktap_pass fail:$ktap_fail"
	[ "$ktap_fail" -eq 0 ] || exit 1
	exit 0
}

die() {
	bad "${NAME:-test}: cannot go on: $*"
	finish
}
