#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# hyptrace record -N, end to end: the guest streams a recording (200
# selftest events per CPU, then CPUs 2 and 3 off and on) through QEMU's
# user-mode network to Debian's stock `trace-cmd listen` on this machine's
# 127.0.0.1, keeping a local copy of the same run (-o). The network is
# restrict=on: the guest reaches nothing but the guestfwd addresses, each
# joined to 127.0.0.1 by tests/boot/tcp-relay.py (10.0.2.100:PORT for the
# listener, :1500-1531 for the per-CPU ports the listener hands out from
# 1500 up). Checks: trace-cmd report of the listener's file is exactly
# that of the local copy; every selftest event there once; the recorder's
# summary counts what trace-cmd shows; two one-line errors (nobody at the
# far end of a forward; a bad HOST:PORT).
# shellcheck source=tests/boot/lib.sh
. "$(dirname "$0")/lib.sh"

HT=$HYPTRACE_BUILD/tools/native/hyptrace
WE=$HYPTRACE_BUILD/guest/write_events
RELAY=$(cd "$(dirname "$0")" && pwd)/tcp-relay.py
[ -x "$HT" ] && [ -x "$WE" ] || fail "hyptrace or write_events not built: run make"
command -v trace-cmd >/dev/null || fail "trace-cmd not installed"
N=200
DATA_PORTS=$(seq 1500 1531)

dir=$TEST_LOGS/$TEST_NAME-files
rm -rf "$dir" && mkdir -p "$dir/listen"
port=$(free_port)
setsid trace-cmd listen -p "$port" -d "$dir/listen" -o net >"$dir/listen.log" 2>&1 &
lpid=$!
trap '/bin/kill -TERM -- "-$lpid" 2>/dev/null || true; wait "$lpid" 2>/dev/null || true' EXIT
for _ in $(seq 50); do
	ss -Hltn "sport = :$port" | grep -q . && break
	sleep 0.1
done
ss -Hltn "sport = :$port" | grep -q . || fail "trace-cmd listen did not start: $(cat "$dir/listen.log")"
# a forward with nobody behind it, for the error case
dead=$(free_port)

netdev="user,id=n0,restrict=on,net=10.0.2.0/24"
netdev+=",guestfwd=tcp:10.0.2.100:$port-cmd:python3 $RELAY $port"
netdev+=",guestfwd=tcp:10.0.2.100:$dead-cmd:python3 $RELAY $dead"
for p in $DATA_PORTS; do
	netdev+=",guestfwd=tcp:10.0.2.100:$p-cmd:python3 $RELAY $p"
done

# The guest side: guest/86-stream-net.sh and guest/workload.sh
BOOT_TIMEOUT=400 boot smp4 --add "$WE" --add "$GUEST_DIR/workload.sh" \
	--add "$GUEST_DIR/86-stream-net.sh" \
	--cmd "sh /root/86-stream-net.sh $N $port $dead" -- \
	-netdev "$netdev" -device virtio-net-device,netdev=n0
expect_ok
guest_file local.dat "$dir/local.dat"
[ "$(value rc_stream)" = 0 ] || fail "hyptrace record -N exited $(value rc_stream): $(grep -a 'hyptrace record:' "$BOOT_LOG" | head -n 2)"
# trace-cmd listen's child finishes the file after the recorder has gone
# (its last options, the clock among them), then lists each CPU's data
for _ in $(seq 300); do
	grep -q '^CPU3 data recorded' "$dir/listen.log" && break
	sleep 0.1
done
grep -q '^CPU3 data recorded' "$dir/listen.log" ||
	fail "trace-cmd listen did not finish its file in 30 s: $(tail -n 3 "$dir/listen.log")"
net=$(ls "$dir/listen"/net.*.dat 2>/dev/null | head -n 1)
[ -s "$net" ] || fail "trace-cmd listen wrote no file: $(tail -n 3 "$dir/listen.log")"

"$TC_REPORT" -i "$dir/local.dat" >"$dir/local.txt" 2>"$dir/local.err" ||
	fail "trace-cmd report of the local copy failed: $(head -n 2 "$dir/local.err")"
"$TC_REPORT" -i "$net" >"$dir/net.txt" 2>"$dir/net.err" ||
	fail "trace-cmd report of the listener's file failed: $(head -n 2 "$dir/net.err")"
[ ! -s "$dir/net.err" ] || fail "trace-cmd report of the listener's file warned: $(head -n 2 "$dir/net.err")"
cmp -s "$dir/local.txt" "$dir/net.txt" ||
	fail "trace-cmd report differs between the listener's file and the local copy: $(diff "$dir/local.txt" "$dir/net.txt" | head -n 4)"

events=0
for c in 0 1 2 3; do
	got=$(awk -v c="[00$c]" '$2 == c && $4 == "selftest:" {print $5}' "$dir/net.txt" |
		sort | uniq -c | awk '$1 != 1 {bad++} END {print NR, bad + 0}')
	[ "$got" = "$N 0" ] || fail "CPU $c: $got (distinct, duplicated) selftest events, want $N 0"
	sent=$(grep -a -A8 "^10.0.2.100:$port: hypervisor, sent" "$BOOT_LOG" | tr -d '\r' |
		awk -v c="$c" '$1 == c {print $2; exit}')
	shown=$(awk -v c="[00$c]" '$2 == c {n++} END {print n + 0}' "$dir/net.txt")
	[ "$sent" = "$shown" ] || fail "CPU $c: the recorder sent $sent events, trace-cmd shows $shown"
	events=$((events + shown))
done
grep -q 'reason=psci func_id=0xc4000003' "$dir/net.txt" ||
	fail "no PSCI entry of a CPU coming back online in the stream"
# into a file first: grep -q ends at the match, and under pipefail the
# writer's SIGPIPE on the rest of its output would fail the pipe
"$HT" stats "$net" >"$dir/stats.txt" ||
	fail "hyptrace stats of the listener's file failed: $(head -n 2 "$dir/stats.txt")"
grep -q 'trace clock boot' "$dir/stats.txt" ||
	fail "hyptrace stats: the listener's file lost the boot clock"

grep -aq "^@dead hyptrace record: 10.0.2.100:$dead closed the connection instead of trace-cmd's greeting" "$BOOT_LOG" ||
	fail "no one-line error for a forward with nobody behind it: $(grep -a '^@dead' "$BOOT_LOG")"
[ "$(grep -ac '^@dead' "$BOOT_LOG")" = 1 ] || fail "more than one line for a forward with nobody behind it"
grep -aq "^@badaddr hyptrace record: '10.0.2.100' has no port number" "$BOOT_LOG" ||
	fail "no one-line error for a HOST without a port: $(grep -a '^@badaddr' "$BOOT_LOG")"

sentline=$(grep -a -A8 "^10.0.2.100:$port: hypervisor, sent" "$BOOT_LOG" | tr -d '\r' |
	grep -a -m1 '^  sent ' | sed 's/^  //')
expect_healthy
pass "$events events streamed to trace-cmd listen through QEMU user networking, report identical to the local copy ($sentline)"
