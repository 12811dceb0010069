# SPDX-License-Identifier: GPL-2.0
# Sourced by the t-*.sh tests of the hyptrace tool. Gives them:
#   $HERE $TOP $NAME $T (a temporary directory, removed at exit)
#   $TC_REPORT           trace-cmd report, the latency column taken out
#   $HYPTRACE $GEN (gen_trace) $FIXTURES, checked to exist
#   ok MSG / bad MSG     a check, as a KTAP test point; finish prints the
#                        plan and the totals and exits (tests/include/ktap.sh)
#   die MSG              the test cannot go on: a failed check, then finish
#   one_line_exit FILE RC CMD...: run CMD, true if it exits RC with exactly
#                        one line on stderr and nothing on stdout (the
#                        stderr line is left in FILE)
#   normalize            trace-cmd report or hyptrace report text on stdin to
#                        "CPU TS NAME ARGS" lines, losses as "CPU:N LOST n"
#   start_fake FILE CMD... / stop_fake: a fake peer for hyptrace listen
#                        (python3) in the background until it makes FILE
#   listen_fails WHAT RC WANT DAT: count whether the listener's run just
#                        done failed as it should
#   usage_fails "ARGS"   count whether hyptrace ARGS exits 2, with a line
#   free_port            scripts/free-port.py, as the boot tests have it

set -u
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
# trace-cmd report with the same columns from every Debian trace-cmd
TC_REPORT=$TOP/tests/tracecmd-report
NAME=$(basename "$0" .sh)
# ok, bad, finish, die
# shellcheck source=tests/include/ktap.sh
. "$TOP/tests/include/ktap.sh"

free_port() {
	python3 "$TOP/scripts/free-port.py"
}

[ -n "${BUILD:-}" ] || die "BUILD is not set (run through run_tests.sh)"
# Every test gives the tool '</dev/null' for "no input". A /dev/null that
# something replaced with a regular file (a tool, run as root, renaming
# its output over -o /dev/null) holds what was last written to it: the
# listener then reads pyenv's error messages as its commands.
[ -c /dev/null ] ||
	die "/dev/null is not the null device: $(ls -l /dev/null) (as root: rm -f /dev/null; mknod -m 666 /dev/null c 1 3)"
[ -n "${HYPTRACE:-}" ] && [ -x "$HYPTRACE" ] ||
	die "HYPTRACE (${HYPTRACE:-unset}) is not an executable"
GEN=${GEN_TRACE:-$BUILD/gen_trace}
[ -x "$GEN" ] || die "no gen_trace at $GEN"
FIXTURES=${FIXTURES:-$HERE/fixtures}
command -v trace-cmd >/dev/null 2>&1 ||
	die "trace-cmd not found (apt-get install trace-cmd)"

T=$(mktemp -d "${TMPDIR:-/tmp}/$NAME.XXXXXX") || die "mktemp"
trap 'rm -rf "$T"' EXIT

one_line_exit() {
	_f=$1
	_rc=$2
	shift 2
	"$@" >"$_f.out" 2>"$_f"
	_got=$?
	[ "$_got" -eq "$_rc" ] && [ "$(wc -l <"$_f")" -eq 1 ] &&
		[ ! -s "$_f.out" ]
}

# trace-cmd: "   <...>--1    [001]     5.000007: hyp_enter:    reason=..."
#            "CPU:3 [202 EVENTS DROPPED]", "CPU:0 [EVENTS DROPPED]"
# hyptrace:  "[001]\t    5.000007: hyp_enter reason=..."
#            "CPU:3 [LOST 202 EVENTS]", "CPU:0 [LOST EVENTS]"
normalize() {
	awk '
	/^cpus=/ { next }
	/^CPU:[0-9]+ \[[0-9]+ EVENTS DROPPED\]$/ {
		sub(/^\[/, "", $2); print $1, "LOST", $2; next }
	/^CPU:[0-9]+ \[EVENTS DROPPED\]$/ { print $1, "LOST ?"; next }
	/^CPU:[0-9]+ \[LOST [0-9]+ EVENTS\]$/ { print $1, "LOST", $3; next }
	/^CPU:[0-9]+ \[LOST EVENTS\]$/ { print $1, "LOST ?"; next }
	{
		for (i = 1; i <= NF; i++)
			if ($i ~ /^\[[0-9]+\]$/)
				break
		if (i > NF) { print "UNPARSED", $0; next }
		c = $i
		gsub(/[][]/, "", c)
		cpu = c + 0
		ts = $(i + 1); sub(/:$/, "", ts)
		name = $(i + 2); sub(/:$/, "", name)
		line = "cpu" cpu " " ts " " name
		for (j = i + 3; j <= NF; j++)
			line = line " " $j
		print line
	}'
}

# start_fake FILE CMD...: CMD (a fake agent or QEMU, python3) in the
# background, its pid in $fpid; returns once it has made FILE (it is
# listening then). A state, not a time: on a loaded machine python3 may
# take seconds to start (pyenv's shim is a chain of bash scripts). The
# test dies if the fake ends without FILE, or makes none in 300 s (a
# hang, not a slow start).
start_fake() {
	_file=$1
	shift
	"$@" &
	fpid=$!
	_i=0
	while [ ! -e "$_file" ]; do
		if ! kill -0 "$fpid" 2>/dev/null || [ $_i -ge 6000 ]; then
			die "the fake ($1 ${2:-}) ended or hung before making $_file"
		fi
		sleep 0.05
		_i=$((_i + 1))
	done
}

# stop_fake: the fake started last, ended
stop_fake() {
	kill "$fpid" 2>/dev/null
	wait "$fpid" 2>/dev/null
}

# listen_fails WHAT RC WANT DAT: the `hyptrace listen` just run (exit
# status RC, stderr in $T/err) failed as a user should see it: exit 1,
# exactly one line on stderr, "hyptrace listen: ...WANT...", and no DAT
# left behind. Counts one check.
listen_fails() {
	if [ "$2" -eq 1 ] && [ "$(wc -l <"$T/err")" -eq 1 ] &&
	   grep -q "^hyptrace listen: .*$3" "$T/err" && [ ! -e "$4" ]; then
		ok "$1: $(cat "$T/err")"
	else
		bad "$1: exit $2, stderr: $(head -n 3 "$T/err")"
	fi
}

# usage_fails "ARGS": hyptrace ARGS (split at spaces) is a bad command
# line: exit 2, and stderr says why or shows the usage. Counts one check.
usage_fails() {
	# shellcheck disable=SC2086 # split on purpose
	"$HYPTRACE" $1 </dev/null >"$T/out" 2>"$T/err"
	_rc=$?
	if [ $_rc -eq 2 ] && grep -q "^hyptrace \|usage" "$T/err"; then
		ok "'$1': exit 2: $(head -n 1 "$T/err")"
	else
		bad "'$1': exit $_rc, want 2, stderr: $(head -n 2 "$T/err")"
	fi
}
