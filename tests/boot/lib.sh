# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
#
# Helpers for the boot tests (tests/boot/[0-9]*.sh), sourced by each test.
#
# A test boots the hypervisor and the guest with ./qemu-run.sh --cmd, then
# asserts on what a user would see: console lines and the command's output.
# It ends with pass "summary" or fail "reason"; tests/run-all.sh shows that
# last line. Console logs stay under $HYPTRACE_BUILD/test-logs/ for reading
# after a failure.
#
# HYPTRACE_TEST_QEMU_ARGS adds qemu-run.sh options to every boot, e.g.
# "--no-hyp" to check that the tests fail without the hypervisor.

set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib.sh"

TEST_NAME=$(basename "$0" .sh)
# trace-cmd report with the same columns from every Debian trace-cmd
TC_REPORT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/tracecmd-report
TEST_LOGS=${HYPTRACE_TEST_LOGS:-$HYPTRACE_BUILD/test-logs}
mkdir -p "$TEST_LOGS"
# The guest sides of the tests, as files that shellcheck reads (make
# test's host check "shellcheck"): a test ships its script with
# --add "$GUEST_DIR/NAME.sh" and runs it with --cmd "sh /root/NAME.sh ...";
# what several tests run has a name of its own (workload.sh)
# shellcheck disable=SC2034 # read by the tests
GUEST_DIR=$HYPTRACE_TOP/tests/boot/guest

# Set by boot().
BOOT_LOG=
BOOT_RC=
BOOT_MSG=
BOOT_CASE=

pass() { echo "PASS: $*"; exit 0; }
fail() { echo "FAIL: ${BOOT_CASE:+$BOOT_CASE: }$*"; exit 1; }
info() { echo "  $*"; }

# boot CASE [qemu-run.sh options...] --cmd 'COMMAND'
# Boots once and records the console in $BOOT_LOG, the exit status in
# $BOOT_RC and qemu-run.sh's own messages in $BOOT_MSG. Never fails by itself.
# BOOT_TIMEOUT limits the whole boot (300 s); BOOT_IDLE_TIMEOUT, if set,
# the time the console may stay silent (qemu-run.sh --idle-timeout), for a
# test whose guest prints as it goes and may run long on a loaded machine.
boot() {
	local extra=()
	BOOT_CASE=$1
	shift
	BOOT_LOG=$TEST_LOGS/$TEST_NAME-$BOOT_CASE.log
	read -r -a extra <<<"${HYPTRACE_TEST_QEMU_ARGS:-}"
	rm -f "$BOOT_LOG"
	BOOT_RC=0
	BOOT_MSG=$("$HYPTRACE_TOP/qemu-run.sh" --no-build --quiet \
		--log "$BOOT_LOG" --timeout "${BOOT_TIMEOUT:-300}" \
		--idle-timeout "${BOOT_IDLE_TIMEOUT:-0}" \
		"${extra[@]+"${extra[@]}"}" "$@" 2>&1) || BOOT_RC=$?
	[ -f "$BOOT_LOG" ] || : >"$BOOT_LOG"
	info "$BOOT_CASE: exit $BOOT_RC, log $BOOT_LOG${BOOT_MSG:+ ($BOOT_MSG)}"
}

# The guest command ran to its end and succeeded.
expect_ok() {
	[ "$BOOT_RC" = 0 ] ||
		fail "exit $BOOT_RC, want 0${BOOT_MSG:+: $BOOT_MSG} (log $BOOT_LOG)"
}

# expect_line 'extended regex' [what]: some console line matches.
expect_line() {
	grep -Eq -- "$1" "$BOOT_LOG" ||
		fail "no console line matches '$1'${2:+ ($2)} (log $BOOT_LOG)"
}

# expect_no_line 'extended regex' [what]: no console line matches.
expect_no_line() {
	local hit
	hit=$(grep -E -m1 -- "$1" "$BOOT_LOG" || true)
	[ -z "$hit" ] || fail "unexpected console line: '$hit'${2:+ ($2)}"
}

# count_lines 'extended regex': how many console lines match.
count_lines() {
	grep -Ec -- "$1" "$BOOT_LOG" || true
}

# value KEY: the last "@KEY=value" the guest command printed. Tests print
# their results that way so that they stand out from kernel messages; one
# that lands in the middle of the line ("@KEY=0[    9.095046] hyptrace:
# ...") is cut off at its time stamp.
value() {
	# Never a failure: "x=$(value y)" under set -e would end the test
	# without a word when the guest printed no @y
	{ grep -a -o "@$1=[^ ]*" "$BOOT_LOG" || true; } | tail -n 1 | cut -d= -f2- |
		sed -E 's/\[ *[0-9]*(\.[0-9]*\])?$//'
}

# Files out of the guest: a guest script prints one in base64 between two
# marker lines ("@B64 NAME", the base64, "@END NAME SIZE", as
# guest/89-last-boot.sh's send), and guest_file takes it from the console.
#
# console_text: the console of the last boot as the guest's programs wrote
# it, without the kernel's messages. printk writes the UART directly while
# a program's output waits in the tty's buffer, so a kernel message (one
# whole "[    12.345678] text" line, ending in a newline of its own) can
# land anywhere in one of our lines, even inside a marker ("@B64 tr[ ...]
# ... released\nace.txt"): it is cut out with its newline wherever it is.
console_text() {
	tr -d '\r' <"$BOOT_LOG" |
		perl -0pe 's/\[ *\d+\.\d+\](\[ *[CT]\d+\])? [^\n]*\n//g'
}

# guest_file NAME OUT: the file the guest sent as NAME into OUT; fails the test
# unless it came out whole, at the size the @END line says (when it has
# one). The last one sent, if the guest sent NAME more than once.
guest_file() {
	local text size
	text=$(console_text)
	awk -v f="$1" '$0 == "@B64 " f {n++}
		END {exit !n}' <<<"$text" || fail "no @B64 $1 on the console: $1 did not come out of the guest"
	awk -v f="$1" '$0 == "@B64 " f {on = 1; out = ""; next}
		on && ($0 == "@END " f || index($0, "@END " f " ") == 1) {on = 0; keep = out}
		on {out = out $0 "\n"}
		END {printf "%s", keep}' <<<"$text" | base64 -d >"$2" ||
		fail "$1 did not come out of the guest intact"
	size=$(awk -v f="$1" 'index($0, "@END " f " ") == 1 {s = $3} END {print s}' <<<"$text")
	[ "$size" != none ] || fail "the guest had no file to send as $1"
	[ -z "$size" ] || [ "$size" = "$(wc -c <"$2")" ] ||
		fail "$1 came out of the guest with $(wc -c <"$2") bytes, the guest sent $size"
}

# The hypervisor ran and Linux runs under it at EL1, without trouble.
# Tests call this after their own checks, so that without the hypervisor
# (tests/run-all.sh --no-hyp) each fails on what it is about where it can.
expect_healthy() {
	expect_line 'CPU: All CPU\(s\) started at EL1'
	expect_no_line 'CPUs started in inconsistent modes'
	expect_no_line 'hyptrace: PANIC'
	expect_no_kernel_trouble
	expect_line '^hyptrace: ' "the hypervisor's banner"
}

# No kernel warning, bug, oops or panic on the console, and none of the
# complaints arm64 Linux makes about a CPU that does not start or stop as
# PSCI promised.
expect_no_kernel_trouble() {
	expect_no_line '(WARNING:|BUG:|Oops|Kernel panic|Internal error|cut here|Call trace:)'
	expect_no_line '(failed to boot|failed to come online|died during early boot|stuck in kernel|will not boot)'
	expect_cpus_off_when_said
}

# A CPU that Linux warned "may not have shut down cleanly" must boot again
# later in the log. cpu_psci_cpu_kill() (arch/arm64/kernel/psci.c) polls
# AFFINITY_INFO for 100 ms of guest time after the CPU said it was dying.
# Under TCG guest time is the host's: on a loaded host the dying vCPU's
# thread may not reach CPU_OFF within 100 ms, and the warning then says
# nothing about the relay (66 saw it at load 17, on 6.1). A CPU_OFF that
# never reached firmware does show later: firmware refuses to start a CPU
# that is still on, so Linux says "failed to boot", or never "Booted".
expect_cpus_off_when_said() {
	local hit
	hit=$(awk '
		/CPU[0-9]+ may not have shut down cleanly/ {
			match($0, /CPU[0-9]+ may/)
			said[substr($0, RSTART + 3, RLENGTH - 7)] = $0
		}
		/CPU[0-9]+: Booted secondary processor/ {
			match($0, /CPU[0-9]+:/)
			delete said[substr($0, RSTART + 3, RLENGTH - 4)]
		}
		END { for (cpu in said) { print said[cpu]; exit } }
	' "$BOOT_LOG")
	[ -z "$hit" ] ||
		fail "a CPU Linux doubted was off never booted again: '$hit' (log $BOOT_LOG)"
}

# The CPU list Linux shows for N CPUs (0, 0-1, 0-3, ...).
cpu_list() {
	if [ "$1" = 1 ]; then echo 0; else echo "0-$(($1 - 1))"; fi
}

# trap_trace: the @T lines of the last boot, unprefixed: the trace's
# traps as a guest script prints them (guest/36-undef.sh, probe-trace.sh)
trap_trace() {
	grep -a '^@T ' "$BOOT_LOG" | sed 's/^@T //; s/\r$//' || true
}

# trace_on_script KB EVENT...: guest shell lines that go to the hypervisor's
# trace files (the remote, or hyptrace.ko's own on a kernel without
# trace_remote: boot/rootfs/sbin/hyptrace-dir says which), start from an empty unloaded buffer of KB KiB per CPU, enable
# only the named events ("all" for every one) and turn tracing on.
trace_on_script() {
	local kb=$1 ev
	shift
	echo 'set -e'
	echo 'cd "$(hyptrace-dir)"'
	echo 'echo 0 > tracing_on'
	echo 'echo 0 > trace'
	echo "echo $kb > buffer_size_kb"
	echo 'echo 0 > events/enable'
	for ev in "$@"; do
		if [ "$ev" = all ]; then
			echo 'echo 1 > events/enable'
		else
			echo "echo 1 > events/hypervisor/$ev/enable"
		fi
	done
	echo 'echo 1 > tracing_on'
}

# trace_on_file KB EVENT...: trace_on_script's commands as a file for the
# guest, and the --add argument that ships it as /root/trace-on.sh, which
# a guest script (tests/boot/guest/) sources: ". /root/trace-on.sh"
trace_on_file() {
	local f=$TEST_LOGS/$TEST_NAME-trace-on.sh
	trace_on_script "$@" >"$f"
	echo "$f:/root/trace-on.sh"
}

# virt_dtb CASE OUT: QEMU virt's device tree for the default machine
# (--dump-dtb), edited by virt-dtb-edit.py as CASE (ranges, none) says,
# compiled into OUT for --dtb
virt_dtb() {
	local dts=$2.dts
	"$HYPTRACE_TOP/qemu-run.sh" --no-build --quiet --dump-dtb "$2.orig" ||
		fail "qemu-run.sh --dump-dtb failed"
	dtc -q -I dtb -O dts -o "$dts.orig" "$2.orig" ||
		fail "dtc cannot read QEMU's device tree"
	python3 "$(dirname "${BASH_SOURCE[0]}")/virt-dtb-edit.py" "$1" \
		"$dts.orig" "$dts" || fail "cannot edit QEMU's device tree for $1"
	dtc -q -I dts -O dtb -o "$2" "$dts" ||
		fail "dtc cannot compile the $1 tree"
}

# stock_board SUITE DTB: Debian's stock kernel of SUITE, the board tree
# DTB (e.g. xilinx/zynqmp-zcu102-rev1.0.dtb) from the same version, and
# hyptrace.ko built for it, as $STOCK_VMLINUZ, $STOCK_DTB and $STOCK_KO;
# fails the test with the script's last line if one cannot be had
stock_board() {
	local log=$TEST_LOGS/$TEST_NAME
	mkdir -p "$log"
	STOCK_VMLINUZ=$(bash "$HYPTRACE_TOP/scripts/fetch-stock-kernel.sh" "$1" \
		2>"$log/fetch.log" | tail -n 1) || true
	[ -f "$STOCK_VMLINUZ" ] ||
		fail "scripts/fetch-stock-kernel.sh: $(tail -n 1 "$log/fetch.log")"
	STOCK_DTB=$(bash "$HYPTRACE_TOP/scripts/fetch-stock-kernel.sh" --dtb "$2" \
		"$1" 2>"$log/fetch-dtb.log" | tail -n 1) || true
	[ -f "$STOCK_DTB" ] ||
		fail "scripts/fetch-stock-kernel.sh --dtb: $(tail -n 1 "$log/fetch-dtb.log")"
	STOCK_KO=$(bash "$HYPTRACE_TOP/scripts/build-stock-module.sh" "$1" \
		2>"$log/build.log" | tail -n 1) || true
	[ -f "$STOCK_KO" ] ||
		fail "scripts/build-stock-module.sh: $(tail -n 1 "$log/build.log")"
}

# project_version: the project's version (scripts/version.sh), which the
# hypervisor's banner, hyptrace.ko's load line and the tool's trace.dat
# files carry; project_version_re: the same as an extended regex
project_version() {
	"$HYPTRACE_TOP/scripts/version.sh"
}
project_version_re() {
	local v
	v=$(project_version) && printf '%s' "${v//./\\.}"
}

# abi_define NAME: the value of HYPTRACE_NAME in shared/hyptrace_abi.h, the
# ABI the tests hold the hypervisor to
abi_define() {
	awk -v n="HYPTRACE_$1" '$1 == "#define" && $2 == n { print $3 }' \
		"$HYPTRACE_TOP/shared/hyptrace_abi.h"
}

# A test that talks to the guest while it runs (88-virtio-agent,
# 91-agent-net): boot_bg boots in the background, wait_log follows the
# console, listen_start / listen_quit drive a `hyptrace listen` on this
# machine, and the EXIT trap boot_bg sets ends what is left.
BG_PID=
BG_DIR=
BG_KILL=	# more pids for the EXIT trap to end
LISTEN_PID=
LISTEN_LOG=

# boot_bg DIR CASE [boot options...]: boot() in the background, its console
# in $BOOT_LOG as it comes; its status kept in DIR until boot_bg_wait.
boot_bg() {
	local d=$1
	BG_DIR=$1
	shift
	BOOT_CASE=$1
	BOOT_LOG=$TEST_LOGS/$TEST_NAME-$1.log
	rm -f "$BOOT_LOG" "$d/boot.rc" "$d/boot.msg"
	(
		boot "$@"
		echo "$BOOT_RC" >"$d/boot.rc"
		printf '%s' "$BOOT_MSG" >"$d/boot.msg"
	) &
	BG_PID=$!
	trap bg_cleanup EXIT
}

# boot_bg_wait: the background boot is over; BOOT_RC and BOOT_MSG as boot()
# leaves them.
boot_bg_wait() {
	wait "$BG_PID" || true
	BG_PID=
	BOOT_RC=$(cat "$BG_DIR/boot.rc" 2>/dev/null || echo "none (the boot died)")
	BOOT_MSG=$(cat "$BG_DIR/boot.msg" 2>/dev/null || true)
}

# The EXIT trap of boot_bg: a listener (stopped or not), the pids in
# $BG_KILL and the boot, ended: every process under the background shell
# (qemu-run.sh ends its QEMU on SIGTERM too), so that a test that fails
# early leaves no QEMU behind to run until its timeout (and to write into
# the console log of the next run). Under set -e a failing command here
# would become the test's exit status, after its verdict: nothing here
# may fail.
bg_cleanup() {
	local p
	for p in $LISTEN_PID $BG_KILL; do
		kill -CONT "$p" 2>/dev/null || true
		kill "$p" 2>/dev/null || true
	done
	if [ -n "$BG_PID" ]; then
		for p in $(bg_descendants "$BG_PID"); do
			kill -TERM "$p" 2>/dev/null || true
		done
		kill "$BG_PID" 2>/dev/null || true
	fi
	wait 2>/dev/null || true
}

# bg_descendants PID: PID's children, theirs and so on, one a line
bg_descendants() {
	local c
	for c in $(pgrep -P "$1" 2>/dev/null || true); do
		echo "$c"
		bg_descendants "$c"
	done
}

# wait_log REGEX SECS: a console line of the background boot matches
# REGEX within SECS seconds (fails at once if the boot is over without it).
wait_log() {
	local i
	for ((i = 0; i < $2 * 5; i++)); do
		grep -aqE -- "$1" "$BOOT_LOG" 2>/dev/null && return 0
		kill -0 "$BG_PID" 2>/dev/null || break
		sleep 0.2
	done
	grep -aqE -- "$1" "$BOOT_LOG" 2>/dev/null ||
		fail "no console line '$1' in $2 s: $(grep -a '^@' "$BOOT_LOG" 2>/dev/null | tail -n 3 | tr '\n' ' ')"
}

# listen_start PREFIX ARGS...: `hyptrace listen ARGS` in the background,
# its output in PREFIX.log, its orders (echo start >&3, stop) on fd 3
# through the fifo PREFIX.cmd.
listen_start() {
	local p=$1
	shift
	rm -f "$p.cmd"
	mkfifo "$p.cmd"
	LISTEN_LOG=$p.log
	"$HYPTRACE_BUILD/tools/native/hyptrace" listen "$@" <"$p.cmd" \
		>"$LISTEN_LOG" 2>&1 &
	LISTEN_PID=$!
	exec 3>"$p.cmd"
}

# listen_quit WHAT: quit the listener; it must exit 0.
listen_quit() {
	local rc=0
	# In a subshell: a listener that already ended (its agent went away
	# first) must not take this shell with it through SIGPIPE; its exit
	# status below says whether it ended well.
	(echo quit >&3) 2>/dev/null || true
	exec 3>&-
	wait "$LISTEN_PID" || rc=$?
	LISTEN_PID=
	[ "$rc" = 0 ] || fail "hyptrace listen ($1) exited $rc: $(tail -n 2 "$LISTEN_LOG")"
}

# selftest_ids TXT CPU: the ids of CPU's selftest events in TXT, the output
# of $TC_REPORT, one a line
selftest_ids() {
	awk -v c="[00$2]" '$2 == c && $4 == "selftest:" {sub("id=", "", $5); print $5}' "$1"
}

# cpu_stat STAT CPU KEY: the number after KEY ("written events:", "agent
# dropped pages:") in CPU's part of STAT, the output of trace-cmd report
# --stat; empty if there is none
cpu_stat() {
	awk -v c="CPU: $2" -v k="$3" '$0 == c {on = 1} on && index($0, k) == 1 {print $NF; exit}' "$1"
}

# stock_test_modules SUITE: tests/modules built for SUITE's stock kernel
# (scripts/build-stock-module.sh), once per build directory however many
# tests ask at once, into $STOCK_TEST_KO_DIR
stock_test_modules() {
	local log=$TEST_LOGS/$TEST_NAME fd src stale
	STOCK_TEST_KO_DIR=$HYPTRACE_BUILD/stock/$1-tests
	mkdir -p "$log" "$STOCK_TEST_KO_DIR"
	exec {fd}>"$STOCK_TEST_KO_DIR/.lock"
	flock "$fd"
	src=$HYPTRACE_TOP/tests/modules
	stale=$(find "$src" "$HYPTRACE_TOP/shared" \( -name '*.[ch]' -o -name Kbuild \) \
		-newer "$STOCK_TEST_KO_DIR/.built" 2>/dev/null | head -n 1) || true
	if [ ! -f "$STOCK_TEST_KO_DIR/.built" ] || [ -n "$stale" ]; then
		rm -f "$STOCK_TEST_KO_DIR"/*.ko "$STOCK_TEST_KO_DIR/.built"
		bash "$HYPTRACE_TOP/scripts/build-stock-module.sh" "$1" --src "$src" \
			-o "$STOCK_TEST_KO_DIR" >/dev/null 2>"$log/build-tests.log" ||
			{ exec {fd}>&-; fail "scripts/build-stock-module.sh --src tests/modules: $(tail -n 1 "$log/build-tests.log")"; }
		touch "$STOCK_TEST_KO_DIR/.built"
	fi
	exec {fd}>&-
}

# fw_answer NAME: "x0 x2 kept" of fwcall_probe.ko's call NAME
fw_answer() {
	grep -a "fwcall_probe: $1 fid=" "$BOOT_LOG" | tail -n 1 |
		sed -E 's/.* x0=(0x[0-9a-f]+) x2=(0x[0-9a-f]+) kept=([01]).*/\1 \2 \3/'
}

# fw_passed NAME FID TRACE: fwcall_probe.ko's call NAME (function FID)
# reached firmware with x1..x17 kept, and TRACE (the hypervisor's trace
# lines) shows it forwarded and firmware's answer; QEMU's firmware answers
# NOT_SUPPORTED to what it does not implement
fw_passed() {
	local got fid
	got=$(fw_answer "$1")
	fid=$(printf '0x%x' "$2")
	[ "${got%% *}" = 0xffffffffffffffff ] ||
		fail "$1: x0 came back '${got%% *}', want firmware's NOT_SUPPORTED (-1)"
	[ "${got##* }" = 1 ] || fail "$1: x1..x17 did not come back as they went"
	grep -q "hyp_exit reason=firmware func_id=$fid " <<<"$3" ||
		fail "$1: no 'hyp_exit reason=firmware func_id=$fid' in the trace: not passed to firmware"
	grep -q "hyp_enter reason=firmware func_id=$fid\$" <<<"$3" ||
		fail "$1: no 'hyp_enter reason=firmware func_id=$fid': firmware's answer not traced"
}

# What a board model must do under the hypervisor, beyond booting (issue
# 22 part 5): board_boot runs the guest's script, guest/board.sh (with the
# stock kernel, hyptrace.ko and tests/modules built for it, stock_test_modules),
# board_expect the checks of its console. Tracing on every CPU, before and
# after BOARD_HOTPLUG rounds of CPUs 1-3 off and on through the relay; a
# SiP and a yielding call to firmware (fwcall_probe.ko); last, a write into
# the hypervisor's private memory from CPU 1 (hyp_poke.ko), which must
# fault in Linux, kill only the writer and leave the guest running.
#
# A board without PSCI firmware (the Pi: spin-table CPUs, the hypervisor's
# own PSCI by HVC) sets BOARD_SPIN to a cpu-release-addr: no firmware calls
# then, the hotplug goes through the hypervisor's PSCI (reason psci_local
# in the trace), and after the write into the hypervisor's memory CPU 2
# writes that release address (phys_probe.ko), which must fault too.
BOARD_HOTPLUG=${BOARD_HOTPLUG:-5}
BOARD_POKE=0x100000	# inside the region, past the image, as 44-stage2
BOARD_SPIN=${BOARD_SPIN:-}

# board_boot CASE PRELUDE [boot options]: boot CASE, the guest running
# PRELUDE (its commands for this board) and then the board checks'
# guest/board.sh; guest/hyp-dmesg.sh is shipped for PRELUDE to run
board_boot() {
	local name=$1 prelude=$2
	shift 2
	boot "$name" "$@" --add "$(trace_on_file 64 all)" \
		--add "$GUEST_DIR/board.sh" --add "$GUEST_DIR/hyp-dmesg.sh" \
		--cmd "$prelude; sh /root/board.sh $BOARD_HOTPLUG $BOARD_POKE $BOARD_SPIN"
}

board_expect() {
	local full=$BOOT_LOG trace c n want fid base aborts=1 fids
	[ "$(value alive)" = 42 ] || fail "the guest ran no command after the checks"
	[ -z "$(value tracing)" ] || fail "tracing did not start (log $BOOT_LOG)"
	trace=$(grep -a '^@T ' "$BOOT_LOG" | sed 's/^@T //; s/\r$//')
	for c in 0 1 2 3; do
		for want in $((c + 700)) $((c + 800)); do
			grep -q "^\[00$c\].*selftest id=$want\$" <<<"$trace" ||
				fail "CPU $c: selftest id=$want not in the trace"
		done
	done
	want=$((3 * BOARD_HOTPLUG))
	[ "$(value hotplug)" = "$want" ] ||
		fail "$(value hotplug) of $want CPU off/on rounds worked"
	# Each CPU_OFF passed on to firmware on the CPU going off, or answered
	# by the hypervisor's own PSCI (which parks the CPU), and each CPU_ON
	# too; each CPU_ON ends with the started CPU's entry through the
	# hypervisor
	fids=("hyp_exit reason=firmware func_id=0x84000002 ")
	[ -z "$BOARD_SPIN" ] || fids=(
		"hyp_enter reason=psci_local func_id=0x84000002\$"
		"hyp_exit reason=psci_local func_id=0x84000002 "
		"hyp_exit reason=psci_local func_id=0xc4000003 ret=0\$")
	for fid in "${fids[@]}" "hyp_enter reason=psci func_id=0xc4000003\$"; do
		n=$(grep -c "$fid" <<<"$trace" || true)
		[ "$n" -ge "$want" ] ||
			fail "$n '${fid%\$}' in the trace, want $want or more"
	done
	if [ -z "$BOARD_SPIN" ]; then
		[ "$(value fwcall)" = 0 ] || fail "fwcall_probe.ko did not load (status '$(value fwcall)')"
		fw_passed sip 0x82000010 "$trace"
		fw_passed tos_yield 0x32000010 "$trace"
	else
		[ "$(value spinpoke)" = 139 ] ||
			fail "the write to the spin table ended with status '$(value spinpoke)', want 139 (killed by the abort)"
		grep -q "^\[002\].*host_abort ipa=$(printf '0x%x' "$BOARD_SPIN") " <<<"$trace" ||
			fail "no host_abort for the write to the spin table on CPU 2 in the trace"
		aborts=2
	fi
	[ "$(value poke)" = 139 ] ||
		fail "the write into the hypervisor's memory ended with status '$(value poke)', want 139 (killed by the abort)"
	base=$(grep -a -o 'hyp_poke: the hypervisor.s region is 0x[0-9a-f]*' "$BOOT_LOG" |
		head -n 1 | sed 's/.* //')
	[ -n "$base" ] || fail "hyp_poke found no hypervisor region"
	grep -q "^\[001\].*host_abort ipa=$(printf '0x%x' $((base + BOARD_POKE))) " <<<"$trace" ||
		fail "no host_abort for the write on CPU 1 in the trace"
	grep -q "^\[002\].*selftest id=900\$" <<<"$trace" ||
		fail "tracing did not go on after the abort"
	n=$(count_lines 'Internal error: synchronous external abort')
	[ "$n" = "$aborts" ] || fail "$n synchronous external aborts reported, want $aborts (the writes)"
	expect_no_line 'Kernel panic'
	# Nothing else the kernel complains about, up to the write
	BOOT_LOG=$TEST_LOGS/$TEST_NAME-before-poke.log
	sed -n '1,/@poke_start/p' "$full" >"$BOOT_LOG"
	expect_no_kernel_trouble
	BOOT_LOG=$full
	BOARD_SUMMARY="hyptrace.ko traced on 4 CPUs; $want CPU_OFF/CPU_ON through the relay; SiP and yielding calls passed to firmware with x1..x17 kept; a write into the hypervisor's memory faulted and the guest ran on"
	[ -z "$BOARD_SPIN" ] ||
		BOARD_SUMMARY="hyptrace.ko traced on 4 CPUs; $want CPU_OFF/CPU_ON answered by the hypervisor's own PSCI; writes into the hypervisor's memory and to the spin table at $BOARD_SPIN faulted and the guest ran on"
}

# The Raspberry Pi tests (48-raspi3b, 51-raspi4b, 61-uboot-raspi4b):
# Debian's tree for the board, its stock kernel, hyptrace.ko and
# tests/modules built for it, and the checks every Pi boot under the
# hypervisor must pass. The Pi's firmware has no PSCI: CPUs 1-3 wait in
# the spin table (QEMU's boot stub plays the firmware's armstub), the
# hypervisor releases them into its park and answers PSCI itself by HVC.
PI_SUITE=trixie-backports
PI_STDOUT=serial1:115200n8	# the mini-UART, brcm,bcm2835-aux-uart
PI_SPIN=0xf0			# CPU 3's cpu-release-addr on both Pis

# pi_board DTB_NAME: the stock kernel, tree and modules (stock_board,
# stock_test_modules), the tree checked for what the checks rely on, and
# a work directory $PI_WORK (removed at exit) with the modules in
# $PI_WORK/modules for --modules; BOARD_SPIN for board_boot
pi_board() {
	BOARD_SPIN=$PI_SPIN
	stock_board "$PI_SUITE" "$1"
	stock_test_modules "$PI_SUITE"
	[ "$(fdtget "$STOCK_DTB" /chosen stdout-path)" = "$PI_STDOUT" ] ||
		fail "$1's stdout-path is no longer $PI_STDOUT"
	[ "$(fdtget "$STOCK_DTB" /cpus/cpu@3 cpu-release-addr)" = "0 $((BOARD_SPIN))" ] ||
		fail "$1's CPU 3 no longer waits at $BOARD_SPIN"
	PI_WORK=$(mktemp -d "${TMPDIR:-/tmp}/hyptrace-$TEST_NAME.XXXXXX")
	# shellcheck disable=SC2064 # the directory of this run
	trap "rm -rf '$PI_WORK'" EXIT
	mkdir "$PI_WORK/modules"
	cp "$STOCK_KO" "$STOCK_TEST_KO_DIR"/*.ko "$PI_WORK/modules/"
}

# raspi4b_dtb IN OUT: Debian's Pi 4 tree as QEMU's raspi4b can boot it:
# the HDMI block (/soc's nodes at bus 0x7ef0xxxx: its clocks, interrupt
# controller, HDMI and DDC I2C) disabled, as QEMU does not model it and a
# read there is an external abort in Linux with or without the
# hypervisor; and what QEMU disables itself in a tree it loads (PCIe,
# RNG, thermal, Ethernet), for a tree that U-Boot loads from the card
raspi4b_dtb() {
	local node compat path
	cp "$1" "$2"
	for node in $(fdtget -l "$2" /soc | grep '@7ef0'); do
		fdtput -t s "$2" "/soc/$node" status disabled ||
			fail "cannot disable /soc/$node in $2"
	done
	for compat in brcm,bcm2711-pcie brcm,bcm2711-rng200 brcm,bcm2711-thermal \
		brcm,bcm2711-genet-v5; do
		for path in $(dtc -q -I dtb -O dts "$2" | awk -v c="\"$compat\"" '
			/{$/ { p[++d] = $1 } /^[ \t]*};/ { d-- }
			$1 == "compatible" && index($0, c) { s = ""
				for (i = 2; i <= d; i++) s = s "/" p[i]; print s }'); do
			fdtput -t s "$2" "$path" status disabled ||
				fail "cannot disable $path in $2"
		done
	done
}

# pi_expect_boot UART LINUX: a Pi boot's console: the hypervisor's lines
# on the mini-UART at UART (the CPU address /soc's ranges give), Linux's
# earlycon there too, the log in dmesg, CPUs 1-3 released into the
# hypervisor's park, and all 4 at EL1 through its PSCI, entered at LINUX
pi_expect_boot() {
	expect_line '^hyptrace: 3 of 3 spin-table CPUs parked at EL2; PSCI for Linux by HVC$' \
		"CPUs 1-3 released into the hypervisor's park"
	expect_line 'psci: PSCIv1.0 detected' "the hypervisor's own PSCI, by HVC"
	expect_line 'SMP: Total of 4 processors activated'
	expect_line 'CPU: All CPU\(s\) started at EL1'
	expect_no_line 'CPUs started in inconsistent modes'
	expect_line "^hyptrace: console: bcm2835-aux at $1, reg-shift 2, reg-io-width 4 \\(stdout-path \"serial1\"\\)\$" \
		"the mini-UART through /soc's ranges, on the mini-UART itself"
	expect_line "^hyptrace: entering Linux at $2 at EL1" "the hypervisor's last line before Linux"
	expect_line "earlycon: bcm2835aux0 MMIO32:0x0*${1#0x} " "Linux's earlycon at the same address"
	expect_line "^@dmesg hyp: console: bcm2835-aux at $1" "the log in dmesg"
	expect_no_line 'hyptrace: PANIC'
}

# pi_expect_off: after board_expect, poweroff as on a Pi: the hypervisor's
# SYSTEM_OFF, and with no firmware to ask, said once
pi_expect_off() {
	expect_line '^hyptrace: SYSTEM_OFF from CPU [0-9], memory canary intact' \
		"the hypervisor's own SYSTEM_OFF"
	expect_line '^hyptrace: no firmware to power off or reset' "said once"
	[ "$(count_lines 'no firmware to power off or reset')" = 1 ] ||
		fail "the hypervisor said more than once that it has no firmware"
}

# pi_reboot [boot options]: a second boot that shows the hypervisor's log
# in dmesg (with --modules) and runs reboot -f: the hypervisor's
# SYSTEM_RESET, no firmware to ask (said), and qemu-run.sh ends QEMU once
# it has (Linux has no other handler here; on a Pi its watchdog's would
# run)
pi_reboot() {
	boot reboot "$@" --add "$GUEST_DIR/hyp-dmesg.sh" \
		--cmd "sh /root/hyp-dmesg.sh; reboot -f"
	[ "$BOOT_RC" != 124 ] || fail "QEMU did not end by itself (timeout)"
	[[ $BOOT_MSG != *panic* ]] || fail "$BOOT_MSG"
	expect_line 'reboot: Restarting system'
	expect_line '^hyptrace: SYSTEM_RESET from CPU [0-9], memory canary intact'
	expect_line '^hyptrace: no firmware to power off or reset: left to Linux.s next handler$'
	expect_no_line 'SYSTEM_OFF'
}
