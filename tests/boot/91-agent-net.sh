#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# hyptrace agent -N, the virtio-trace model over TCP, end to end: the
# guest runs `hyptrace agent -N 10.0.2.15:7000 --key KEY` behind QEMU's
# user-mode network (restrict=on, the only way in a hostfwd from this
# machine's 127.0.0.1:PORT), and this machine is its clients, one after
# the other, each answering the key's challenge (python3 ones with
# Python's hmac, so the handshake is checked against a second
# implementation):
#   1. `hyptrace listen -N 127.0.0.1:PORT --key KEY`: start, the guest
#      writes N selftest events per CPU, stop, more events while stopped,
#      quit;
#   2. garbage (python3): it gets an "error" message, the agent one line
#      on stderr, and the agent goes on; so does a client that sends only
#      empty lines (no order) for --idle-s 5 seconds;
#   3. `hyptrace listen -N` through a relay on 127.0.0.1 (python3) that
#      records the listener's answer to the challenge, and stops reading
#      from the agent (its orders still go through) while
#      the guest writes a burst far larger than what the way holds, and
#      for 7 s more: the agent must drop whole pages and count them, not
#      stop the guest nor drop the client; the relay reads again, the
#      guest writes N more per CPU (which must all arrive), the listener
#      stops and quits;
#   hostile clients, none of which may get past the challenge: one with
#      another key, one that sends an order at once (no key), one that
#      sends only empty lines, one that replays the answer the relay
#      recorded, one that says nothing: each gets the challenge and one
#      "error" message and is closed, and the agent says so on stderr
#      and counts them by kind (its summary at the end: 2 wrong key, 2 no
#      answer, 1 silent); no round is started by any;
#   4. a client (python3) that starts a round, reads its pages and then
#      sends garbage: an "error" message is the last it gets, the round
#      is stopped (tracing off);
#   5. a client that starts a round (python3), then a second client while
#      it is served: the second gets an "error" message and is closed, the
#      first goes on; then the first goes away in the middle of its round:
#      the agent stops it and goes on;
#   6. `hyptrace listen -N` again, as in 1.
# Checks, with stock trace-cmd report of the listeners' files: the events
# written while started arrived once each, none written while stopped and
# none of client 5's round; in the burst, what arrived plus what the
# agent's counts in the file (report --stat) say it dropped is what was
# written, and some pages were dropped; the agent ends 0 on SIGTERM. Then
# a second agent that no client ever reaches: it waits with tracing off
# and ends at once, 0 and silent, on SIGTERM, tracing still off. Clients 1
# and 6 run with --align boot: each must report the clocks lined up over
# the connection (92 checks the alignment itself).
# shellcheck source=tests/boot/lib.sh
. "$(dirname "$0")/lib.sh"

HT=$HYPTRACE_BUILD/tools/native/hyptrace
VTC=$(dirname "$0")/vtclient.py
WE=$HYPTRACE_BUILD/guest/write_events
[ -x "$HT" ] && [ -x "$WE" ] || fail "hyptrace or write_events not built: run make"
command -v trace-cmd >/dev/null || fail "trace-cmd not installed"
N=2000		# events per CPU while started
NBIG=150000	# per CPU in round 2, the relay not reading
QUIET=50	# per CPU while stopped

dir=$TEST_LOGS/$TEST_NAME-files
rm -rf "$dir" && mkdir -p "$dir"
port=$(free_port)
# the shared key, and another one for the client with the wrong key
key=$dir/agent.key
"$HT" keygen "$key" >/dev/null && "$HT" keygen "$dir/other.key" >/dev/null ||
	fail "hyptrace keygen failed"
netdev="user,id=n0,restrict=on,net=10.0.2.0/24"
netdev+=",hostfwd=tcp:127.0.0.1:$port-10.0.2.15:7000"

# Rounds (the agent's round numbers): 1 listener, 2 the burst, 3 garbage
# in the middle, 4 the client that goes away, 5 listener.
# The guest side: guest/91-agent-net.sh, with guest/agent.sh
BOOT_TIMEOUT=600 boot_bg "$dir" smp4 --add "$WE" --add "$key:/root/agent.key" \
	--add "$GUEST_DIR/agent.sh" --add "$GUEST_DIR/91-agent-net.sh" \
	--cmd "sh /root/91-agent-net.sh $N $NBIG $QUIET" -- \
	-netdev "$netdev" -device virtio-net-device,netdev=n0

# listen_round K [PORT]: hyptrace listen -N for the guest's round K, into
# cK.dat, through 127.0.0.1:PORT (default the hostfwd), on this machine's
# boot clock (--align: the clock exchange over TCP)
listen_round() {
	local k=$1
	listen_start "$dir/listen$k" -N "127.0.0.1:${2:-$port}" --key "$key" \
		-o "$dir/c$k.dat" --align boot
	echo start >&3
	wait_log "^@round $k started" 60
	wait_log "^@round $k written" 120
	echo stop >&3
	wait_log "^@round $k quiet" 120
	listen_quit "client $k"
}

wait_log '^@agent ready' 300
start=$(date +%s.%N)
listen_round 1
t1=$(date +%s.%N)

# garbage: an error message back, the connection closed
python3 "$VTC" "$port" "$key" garbage >"$dir/garbage.out" 2>&1 ||
	fail "garbage client: $(tail -n 2 "$dir/garbage.out")"

# a client with the key that then sends only empty lines, no order:
# dropped after --idle-s, with an error message
python3 "$VTC" "$port" "$key" newlines >"$dir/silent.out" 2>&1 ||
	fail "client of empty lines: $(tail -n 2 "$dir/silent.out")"

# Round 2: the listener through a relay that stops reading from the agent
# while DIR/pause exists; the listener's orders and pings still go
# through, so the agent sees a slow client, not a silent one. Its receive
# buffer is small, so that the agent's side fills soon. It keeps the
# listener's first line, its answer to the challenge, in DIR/answer.line
# for the replay below.
rport=$(free_port)
python3 - "$port" "$rport" "$dir" >"$dir/relay.out" 2>&1 <<'PY' &
import os, select, socket, sys
port, rport, d = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
srv = socket.socket()
srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
srv.bind(("127.0.0.1", rport))
srv.listen(1)
open(os.path.join(d, "relay.ready"), "w").close()
lc = srv.accept()[0]
ag = socket.socket()
ag.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 16384)
ag.connect(("127.0.0.1", port))
first = b""
while True:
    stop = os.path.exists(os.path.join(d, "pause"))
    r, _, _ = select.select([lc] + ([] if stop else [ag]), [], [], 0.1)
    if lc in r:
        b = lc.recv(65536)
        if not b:
            break
        if b"\n" not in first:
            first += b
            if b"\n" in first:
                open(os.path.join(d, "answer.line"), "wb").write(
                    first[:first.index(b"\n") + 1])
        ag.sendall(b)
    if ag in r:
        b = ag.recv(65536)
        if not b:
            break
        lc.sendall(b)
print("relay done")
PY
BG_KILL=$!
for _ in $(seq 50); do [ -e "$dir/relay.ready" ] && break; sleep 0.1; done
[ -e "$dir/relay.ready" ] || fail "the relay did not start: $(cat "$dir/relay.out")"
listen_start "$dir/listen2" -N "127.0.0.1:$rport" --key "$key" -o "$dir/c2.dat"
echo start >&3
wait_log "^@round 2 started" 60
touch "$dir/pause"
info "relay paused at $(date +%T.%N)"
wait_log "^@round 2 written" 300
wait_log "^@round 2 dropping" 60
# still not reading, longer than the agent waits for a control message
sleep 7
kill -0 "$LISTEN_PID" 2>/dev/null || fail "the listener of round 2 ended while the relay paused: $(tail -n 2 "$dir/listen2.log")"
rm -f "$dir/pause"
info "relay reads again at $(date +%T.%N)"
wait_log "^@round 2 more" 60
echo stop >&3
wait_log "^@round 2 quiet" 120
listen_quit "client 2, through the relay"
kill "$BG_KILL" 2>/dev/null || true
wait "$BG_KILL" 2>/dev/null || true
BG_KILL=

# Hostile clients: none may get past the challenge, nor start a round
grep -q '^auth [0-9a-f]\{64\} [0-9a-f]\{64\}$' "$dir/answer.line" ||
	fail "the relay recorded no answer of the listener: $(head -c 200 "$dir/answer.line")"
for h in "wrongkey $dir/other.key" order emptyline "replay $dir/answer.line" silent; do
	# shellcheck disable=SC2086 # MODE [FILE]
	python3 "$VTC" "$port" "$key" $h >"$dir/hostile.out" 2>&1 ||
		fail "hostile client ${h%% *}: $(tail -n 2 "$dir/hostile.out")"
	info "$(tail -n 1 "$dir/hostile.out")"
done

# Round 3: garbage in the middle of a running round, after some pages
python3 - "$port" "$dir" "$VTC" "$key" >"$dir/midgarbage.out" 2>&1 <<'PY' &
import os, socket, sys, time
sys.path.insert(0, os.path.dirname(sys.argv[3]))
sys.dont_write_bytecode = True	# no __pycache__ in the source tree
import vtclient
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=30)
vtclient.handshake(s, vtclient.load_key(sys.argv[4]))
d = sys.argv[2]
buf, msgs = b"", []
def more():
    global buf
    b = s.recv(65536)
    if b:
        buf += b
    return bool(b)
def parse():
    global buf
    while b"\n" in buf:
        head, rest = buf.split(b"\n", 1)
        name, n = head.split(b" ")
        if len(rest) < int(n):
            return
        msgs.append((name.decode(), rest[:int(n)]))
        buf = rest[int(n):]
s.sendall(b"1\n")
while not any(m[0] == "started" for m in msgs):
    if not more():
        print("closed before started"); sys.exit(1)
    parse()
open(os.path.join(d, "g.started"), "w").close()
s.settimeout(0.5)
last = time.time()
while not os.path.exists(os.path.join(d, "g.go")):
    if time.time() - last > 1:
        s.sendall(b"ping\n"); last = time.time()
    try:
        if not more():
            print("the agent closed on us"); sys.exit(1)
    except socket.timeout:
        pass
    parse()
before = len(msgs)
pages = sum(m[0].startswith("page:") for m in msgs)
s.sendall(b"bogus\x02order\n")
s.settimeout(30)
while more():
    parse()
after = [m[0] for m in msgs[before:]]
print("%d pages before the garbage; after it: %s; %d bytes unparsed" %
      (pages, " ".join(after), len(buf)))
err = [m for m in msgs[before:] if m[0] == "error"]
if not err or b"unknown order" not in err[0][1]:
    print("no error message"); sys.exit(1)
if after[-1] != "error" or buf:
    print("the error is not the last message"); sys.exit(1)
PY
apy=$!
BG_KILL=$apy
wait_log "^@round 3 started" 60
wait_log "^@round 3 written" 120
sleep 1
touch "$dir/g.go"
wait_log "^@round 3 quiet" 120
grc=0
wait "$apy" || grc=$?
BG_KILL=
[ "$grc" = 0 ] || fail "client 3 (garbage in its round): $(tail -n 2 "$dir/midgarbage.out")"

# client 5 starts a round and keeps reading; a second client is refused
python3 - "$port" "$dir" "$VTC" "$key" >"$dir/a.out" 2>&1 <<'PY' &
import os, socket, sys, time
sys.path.insert(0, os.path.dirname(sys.argv[3]))
sys.dont_write_bytecode = True	# no __pycache__ in the source tree
import vtclient
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=20)
vtclient.handshake(s, vtclient.load_key(sys.argv[4]))
s.sendall(b"1\n")
got = b""
while b"started 1\n1" not in got:
    d = s.recv(65536)
    if not d:
        print("closed before started"); sys.exit(1)
    got += d
open(os.path.join(sys.argv[2], "a.started"), "w").close()
s.settimeout(0.2)
n = len(got)
last = time.time()
while not os.path.exists(os.path.join(sys.argv[2], "a.close")):
    if time.time() - last > 1:
        s.sendall(b"ping\n"); last = time.time()
    try:
        d = s.recv(65536)
        if not d:
            print("the agent closed on us"); sys.exit(1)
        n += len(d)
    except socket.timeout:
        pass
print("read %d bytes, going away" % n)
s.close()
PY
apy=$!
BG_KILL=$apy
for _ in $(seq 100); do [ -e "$dir/a.started" ] && break; sleep 0.2; done
[ -e "$dir/a.started" ] || fail "client 5 did not start a round: $(cat "$dir/a.out")"
wait_log "^@round 4 started" 60
python3 - "$port" >"$dir/b.out" 2>&1 <<'PY' || fail "second client: $(tail -n 2 "$dir/b.out")"
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=20)
got = b""
while True:
    d = s.recv(4096)
    if not d:
        break
    got += d
print(got.decode(errors="replace"))
sys.exit(0 if got.startswith(b"error ") and b"another client is being served" in got else 1)
PY
wait_log "^@round 4 written" 120
kill -0 "$apy" 2>/dev/null || fail "client 5 was dropped when the second came: $(cat "$dir/a.out")"
touch "$dir/a.close"
arc=0
wait "$apy" || arc=$?
BG_KILL=
[ "$arc" = 0 ] || fail "client 5: $(cat "$dir/a.out")"
wait_log "^@round 4 quiet" 120

t2=$(date +%s.%N)
listen_round 5
t3=$(date +%s.%N)
boot_bg_wait
expect_ok
log=$BOOT_LOG
[ "$(value agent_rc)" = 0 ] || fail "the agent exited $(value agent_rc) on SIGTERM, want 0: $(grep -a '^@agent ' "$log" | tail -n 3)"

# ids K CPU TXT: CPU's selftest ids in TXT into $dir/idsK.CPU, none twice
ids() {
	selftest_ids "$3" "$2" >"$dir/ids$1.$2"
	dup=$(sort "$dir/ids$1.$2" | uniq -d | wc -l)
	[ "$dup" = 0 ] || fail "client $1, CPU $2: $dup events arrived twice"
}
total=0
for k in 1 2 5; do
	"$TC_REPORT" -i "$dir/c$k.dat" >"$dir/c$k.txt" 2>"$dir/c$k.err" ||
		fail "trace-cmd report of client $k's file failed: $(head -n 2 "$dir/c$k.err")"
	[ ! -s "$dir/c$k.err" ] || fail "trace-cmd report warned on client $k's file: $(head -n 2 "$dir/c$k.err")"
done
for k in 1 5; do
	for c in 0 1 2 3; do
		ids "$k" "$c" "$dir/c$k.txt"
		got=$(awk -v lo=$((k * 1000000 + c * 100000 + 1)) -v n=$N \
			'$1 >= lo && $1 < lo + n' "$dir/ids$k.$c" | wc -l)
		[ "$got" = "$N" ] || fail "client $k, CPU $c: $got of $N events arrived"
		other=$(($(wc -l <"$dir/ids$k.$c") - got))
		[ "$other" = 0 ] || fail "client $k, CPU $c: $other events of another round or written while stopped"
		total=$((total + got))
	done
done
lost=$(cat "$dir/c1.txt" "$dir/c2.txt" "$dir/c5.txt" | grep -c 'LOST' || true)
[ "$lost" = 0 ] || fail "$lost lost-event marks: the hypervisor's buffer overflowed"

# Round 2: what arrived and what the agent says it dropped, in the file
trace-cmd report --stat -i "$dir/c2.dat" >"$dir/stat2.txt" 2>"$dir/stat2.err" ||
	fail "trace-cmd report --stat of client 2's file: $(head -n 1 "$dir/stat2.err")"
dropped_pages=0
for c in 0 1 2 3; do
	ids 2 "$c" "$dir/c2.txt"
	got=$(awk -v lo=$((2000000 + c * 100000 + 1)) -v n=$NBIG \
		'$1 >= lo && $1 < lo + n' "$dir/ids2.$c" | wc -l)
	# written once the relay read again: all there
	more=$(awk -v lo=$((2700000 + c * 100000 + 1)) -v n=$N \
		'$1 >= lo && $1 < lo + n' "$dir/ids2.$c" | wc -l)
	[ "$more" = "$N" ] || fail "client 2, CPU $c: $more of the $N events written after the stall arrived"
	other=$(($(wc -l <"$dir/ids2.$c") - got - more))
	[ "$other" = 0 ] || fail "client 2, CPU $c: $other events of another round or written while stopped"
	dp=$(cpu_stat "$dir/stat2.txt" "$c" "agent dropped pages:")
	de=$(cpu_stat "$dir/stat2.txt" "$c" "agent dropped events:")
	[ -n "$dp" ] && [ -n "$de" ] || fail "client 2, CPU $c: no 'agent dropped' counts in trace-cmd report --stat"
	[ $((got + de)) = "$NBIG" ] ||
		fail "client 2, CPU $c: $got arrived + $de dropped = $((got + de)), written $NBIG"
	dropped_pages=$((dropped_pages + dp))
	info "client 2, CPU $c: of $NBIG $got arrived + $de dropped ($dp pages); then $more of $N"
done
[ "$dropped_pages" -gt 0 ] || fail "the stalled client made the agent drop no page"
[ "$(awk '$1 == "all" {print $6}' "$dir/listen2.log")" = "$dropped_pages" ] ||
	fail "client 2's listener does not say $dropped_pages pages dropped: $(grep '^ *all ' "$dir/listen2.log")"
grep -aq '^@agent hyptrace agent: the client took no page for 1000 ms: dropping pages until it takes one' "$log" ||
	fail "the agent did not say it dropped pages of the slow client: $(grep -a '^@agent .*dropp' "$log" | head -n 2)"
grep -aq '^@agent hyptrace agent: the client takes pages again, [1-9][0-9]* dropped meanwhile' "$log" ||
	fail "the agent did not say the slow client took pages again"
grep -aqE "^@agent hyptrace agent: stopped \(round 1\): [0-9]+ pages sent, $dropped_pages dropped" "$log" ||
	fail "no stopped line of the agent says $dropped_pages dropped: $(grep -a '^@agent hyptrace agent: stopped' "$log" | tr '\n' ' ')"

# Round 3: garbage in the middle
info "client 3: $(tail -n 1 "$dir/midgarbage.out")"
grep -aq "^@agent hyptrace agent: unknown order 'bogus?order' on the connection .*; dropping the client" "$log" ||
	fail "no one-line error for the garbage client: $(grep -a '^@agent hyptrace agent: u' "$log" | head -n 2)"
[ "$(grep -ac '^@agent hyptrace agent: unknown order' "$log")" = 2 ] ||
	fail "not one line for each of the 2 garbage clients: $(grep -ac '^@agent hyptrace agent: unknown order' "$log")"
awk '/^@agent hyptrace agent: unknown order/ {n++} n == 2 && /^@agent hyptrace agent: stopped \(round 1\)/ {ok = 1}
     n == 2 && /^@agent hyptrace agent: a client connected/ {exit} END {exit !ok}' "$log" ||
	fail "the agent did not stop the round of the client that sent garbage in it"
for k in 1 2 3 4 5; do
	[ "$(value "tracing_on_$k")" = 0 ] || fail "tracing_on reads $(value "tracing_on_$k") after round $k stopped"
done
grep -aq '^@agent hyptrace agent: no order from the client in 5 s; dropping the client' "$log" ||
	fail "the agent did not drop the client of empty lines"
# the hostile clients: a line each, counted by kind, none served
for r in "wrong key:2" "no answer to the challenge:2" "silent:1"; do
	n=$(grep -ac "^@agent hyptrace agent: refused a client: ${r%:*} " "$log")
	[ "$n" = "${r#*:}" ] || fail "$n lines 'refused a client: ${r%:*}', want ${r#*:}: $(grep -a '^@agent hyptrace agent: refused' "$log" | head -n 5)"
done
grep -aq '^@agent hyptrace agent: refused 5 clients: 2 wrong key, 2 no answer, 1 silent$' "$log" ||
	fail "the agent's count of refused clients: $(grep -a '^@agent hyptrace agent: refused [0-9]' "$log")"
[ "$(grep -ac '^@agent hyptrace agent: a client connected' "$log")" = 7 ] ||
	fail "$(grep -ac '^@agent hyptrace agent: a client connected' "$log") clients served, want 7 (the hostile ones must not be)"
grep -aq '^@agent hyptrace agent: a second client refused while one is served' "$log" ||
	fail "the agent did not say it refused the second client"
grep -aq '^@agent hyptrace agent: the client went away in the middle of a round: stopping it' "$log" ||
	fail "the agent did not stop the round of the client that went away"

# The agent no client reached
[ "$(value idle_tracing_on)" = 0 ] || fail "tracing_on reads $(value idle_tracing_on) while the agent waits for a client"
[ "$(value idle_events)" = 0 ] || fail "$(value idle_events) events traced while the agent waits for a client"
[ "$(value agent2_rc)" = 0 ] || fail "the agent no client reached exited $(value agent2_rc) on SIGTERM, want 0: $(grep -a '^@agent2 ' "$log" | tail -n 3)"
awk -v s="$(value agent2_s)" 'BEGIN {exit !(s < 2)}' ||
	fail "the agent no client reached took $(value agent2_s) s to end on SIGTERM"
[ "$(value agent2_tracing_on)" = 0 ] || fail "tracing_on reads $(value agent2_tracing_on) after the agent ended"
[ "$(value agent2_lines)" = 1 ] && grep -aq '^@agent2 hyptrace agent: listening on 10.0.2.15:7000$' "$log" ||
	fail "the agent no client reached said more than 'listening on': $(grep -a '^@agent2 ' "$log" | head -n 3)"
for k in 1 5; do
	grep -q "clock after round 1: the board's boot [-+] [0-9]*\.[0-9]\{9\} s = this machine's boot, within [0-9]* us" "$dir/listen$k.log" &&
		grep -q "^  timestamps on this machine's boot clock (OFFSET [0-9]* ns in the file)" "$dir/listen$k.log" ||
		fail "listener $k (--align boot) did not line the clocks up: $(grep clock "$dir/listen$k.log" | head -n 2)"
done
expect_healthy
info "client 1: $(grep '^ *all ' "$dir/listen1.log" | sed 's/^ *//')"
info "client 1: $(grep '^  clock: ' "$dir/listen1.log" | sed 's/^ *//')"
info "client 2: $(grep '^ *all ' "$dir/listen2.log" | sed 's/^ *//')"
info "client 6: $(grep '^ *all ' "$dir/listen5.log" | sed 's/^ *//')"
pass "$(printf '%s' "agent -N --key served 7 clients in turn and refused 1 while busy and 5 hostile ones (another key, an order first, empty lines, a replayed answer, silence: each an error, a line, counted), over QEMU hostfwd 127.0.0.1:$port: $total events from 2 listeners, each once, none while stopped or from the dropped round; a slow client got $dropped_pages pages dropped and counted in its file; garbage (before and in a round), a client of empty lines and a second client got errors, a vanished client's round was stopped; an agent no client reached ended 0 on SIGTERM" \
	"$(awk -v a="$start" -v b="$t1" -v c="$t2" -v d="$t3" 'BEGIN {printf " (listen rounds %.1f s, %.1f s)", b - a, d - c}')")"
