#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The virtio-trace model, end to end: QEMU with qemu-run.sh --virtio-trace
# (a virtio-serial device, agent-ctl-path and trace-path-cpu0..3 on UNIX
# sockets in a directory here), `hyptrace agent` in the guest, `hyptrace
# listen --virtio DIR` on this machine, given start and stop on its
# standard input three times. Each round the guest writes selftest events
# on every CPU while started, and more while stopped. In round 3 the
# listener is stopped (SIGSTOP) while the guest writes a burst far larger
# than what the way to it holds (the chardev sockets, QEMU and the port
# took about 1,000 pages per CPU before the agent saw a stall), and stays
# stopped until the agent says it is dropping: the agent must drop whole
# pages and count them rather than stop the guest. Checks, with stock
# trace-cmd report of the listener's trace.dat: rounds 1 and 2 arrived
# whole, each event once; in round 3 the events that arrived plus the
# agent's count of dropped events are what was written, each once, and
# some pages were dropped; no event written while stopped; the counts are
# in the file's CPU stats (report --stat). Then garbage on the control
# port ends the agent with one line and exit 1.
# shellcheck source=tests/boot/lib.sh
. "$(dirname "$0")/lib.sh"

HT=$HYPTRACE_BUILD/tools/native/hyptrace
WE=$HYPTRACE_BUILD/guest/write_events
[ -x "$HT" ] && [ -x "$WE" ] || fail "hyptrace or write_events not built: run make"
command -v trace-cmd >/dev/null || fail "trace-cmd not installed"
N=2000		# events per CPU in rounds 1 and 2
NBIG=300000	# per CPU in round 3, with the listener stopped
QUIET=50	# per CPU while stopped

dir=$TEST_LOGS/$TEST_NAME-files
vt=$dir/vt
rm -rf "$dir" && mkdir -p "$dir"

# The guest side: guest/88-virtio-agent.sh, with guest/agent.sh
BOOT_TIMEOUT=600 boot_bg "$dir" smp4 --virtio-trace "$vt" --add "$WE" \
	--add "$GUEST_DIR/agent.sh" --add "$GUEST_DIR/88-virtio-agent.sh" \
	--cmd "sh /root/88-virtio-agent.sh $N $NBIG $QUIET"

wait_log '^@agent ready' 300
listen_start "$dir/listen" --virtio "$vt" -o "$dir/vt.dat"
for r in 1 2 3; do
	echo start >&3
	wait_log "^@round $r started" 60
	[ "$r" != 3 ] || { kill -STOP "$LISTEN_PID"; info "listener stopped at $(date +%T.%N)"; }
	wait_log "^@round $r written" 300
	if [ "$r" = 3 ]; then
		wait_log "^@round $r dropping" 40
		info "listener continued at $(date +%T.%N)"; kill -CONT "$LISTEN_PID"
	fi
	echo stop >&3
	wait_log "^@round $r quiet" 120
done
listen_quit "over virtio-serial"
# Garbage on the control port: the agent says so and exits 1
python3 - "$vt/agent-ctl-path" <<'EOF'
import socket, sys, time
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
s.sendall(b"bogus\x01order\n")
time.sleep(2)
EOF
boot_bg_wait
expect_ok
log=$BOOT_LOG

"$TC_REPORT" -i "$dir/vt.dat" >"$dir/vt.txt" 2>"$dir/vt.err" ||
	fail "trace-cmd report failed: $(head -n 2 "$dir/vt.err")"
[ ! -s "$dir/vt.err" ] || fail "trace-cmd report warned: $(head -n 2 "$dir/vt.err")"
trace-cmd report --stat -i "$dir/vt.dat" >"$dir/stat.txt" 2>"$dir/stat.err" ||
	fail "trace-cmd report --stat: $(head -n 1 "$dir/stat.err")"

dropped_pages=0
for c in 0 1 2 3; do
	selftest_ids "$dir/vt.txt" "$c" >"$dir/ids.$c"
	dup=$(sort "$dir/ids.$c" | uniq -d | wc -l)
	[ "$dup" = 0 ] || fail "CPU $c: $dup events arrived twice"
	for r in 1 2; do
		got=$(awk -v lo=$((r * 1000000 + c * 100000 + 1)) -v n=$N \
			'$1 >= lo && $1 < lo + n' "$dir/ids.$c" | wc -l)
		[ "$got" = "$N" ] || fail "CPU $c round $r: $got of $N events arrived"
	done
	got3=$(awk -v lo=$((3000000 + c * 100000 + 1)) -v n=$NBIG \
		'$1 >= lo && $1 < lo + n' "$dir/ids.$c" | wc -l)
	quiet=$(awk '$1 % 1000000 >= 900000' "$dir/ids.$c" | wc -l)
	[ "$quiet" = 0 ] || fail "CPU $c: $quiet events written while stopped arrived"
	other=$(($(wc -l <"$dir/ids.$c") - 2 * N - got3))
	[ "$other" = 0 ] || fail "CPU $c: $other events that nobody wrote"
	dp=$(cpu_stat "$dir/stat.txt" "$c" "agent dropped pages:")
	de=$(cpu_stat "$dir/stat.txt" "$c" "agent dropped events:")
	wr=$(cpu_stat "$dir/stat.txt" "$c" "written events:")
	[ -n "$dp" ] && [ -n "$de" ] || fail "CPU $c: no 'agent dropped' counts in trace-cmd report --stat"
	[ "$wr" = "$NBIG" ] || fail "CPU $c: the board's stats in the file say $wr events written in the last round, want $NBIG"
	[ $((got3 + de)) = "$NBIG" ] ||
		fail "CPU $c round 3: $got3 arrived + $de dropped = $((got3 + de)), written $NBIG"
	dropped_pages=$((dropped_pages + dp))
	info "CPU $c: rounds 1-2 $((2 * N)) of $((2 * N)), round 3 $got3 arrived + $de dropped ($dp pages)"
done
[ "$dropped_pages" -gt 0 ] || fail "the stalled listener made the agent drop no page"
lost=$(grep -c 'LOST' "$dir/vt.txt" || true)
[ "$lost" = 0 ] || fail "$lost lost-event marks: the hypervisor's buffer overflowed"

grep -aq "^@agent hyptrace agent: unknown order 'bogus?order' on agent-ctl-path" "$log" ||
	fail "no one-line error for garbage on the control port: $(grep -a '^@agent hyptrace agent: [^rs]' "$log" | head -n 2)"
[ "$(value agent_rc)" = 1 ] || fail "the agent exited $(value agent_rc) after garbage, want 1"
expect_healthy
pass "3 rounds started and stopped from the host over virtio-serial: $((4 * 2 * N)) events whole, none while stopped, none twice; the stalled round dropped $dropped_pages pages, counted in the file"
