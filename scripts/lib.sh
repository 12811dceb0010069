# SPDX-License-Identifier: GPL-2.0
# Helpers shared by the build and run scripts: progress output and the cache.

HYPTRACE_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Kernel builds and downloaded packages live outside the work tree so that a
# fresh clone (as CI makes) reuses them.
HYPTRACE_CACHE=${HYPTRACE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hyptrace}
HYPTRACE_BUILD=${HYPTRACE_BUILD:-$HYPTRACE_TOP/build}

step() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }
note() { printf '    %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# Run a long command, keep its output in a log and show a heartbeat so the
# user sees progress without a wall of compiler lines.
run_logged() {
	local log=$1; shift
	local start=$SECONDS pid
	mkdir -p "$(dirname "$log")"
	"$@" >"$log" 2>&1 &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		sleep 15
		kill -0 "$pid" 2>/dev/null &&
			note "... $((SECONDS - start))s, $(wc -l <"$log") log lines ($log)"
	done
	if ! wait "$pid"; then
		tail -n 40 "$log" >&2
		die "command failed after $((SECONDS - start))s: $* (full log: $log)"
	fi
	note "done in $((SECONDS - start))s"
}

as_root() {
	if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}
