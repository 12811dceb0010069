#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# hyptrace agent -N, the virtio-trace model over TCP, end to end: the
# guest runs `hyptrace agent -N 10.0.2.15:7000` behind QEMU's user-mode
# network (restrict=on, the only way in a hostfwd from this machine's
# 127.0.0.1:PORT), and this machine is its clients, one after the other:
#   1. `hyptrace listen -N 127.0.0.1:PORT`: start, the guest writes N
#      selftest events per CPU, stop, more events while stopped, quit;
#   2. garbage (python3): it gets an "error" message, the agent one line
#      on stderr, and the agent goes on; so does a client that says
#      nothing for --idle-s 5 seconds;
#   3. a client that starts a round (python3), then a second client while
#      it is served: the second gets an "error" message and is closed, the
#      first goes on; then the first goes away in the middle of its round:
#      the agent stops it and goes on;
#   4. `hyptrace listen -N` again, as in 1.
# Checks, with stock trace-cmd report of both listeners' files: the events
# written while started arrived once each, none written while stopped and
# none of client 3's round; the agent ends 0 on SIGTERM.
# shellcheck source=tests/boot/lib.sh
. "$(dirname "$0")/lib.sh"

HT=$HYPTRACE_BUILD/tools/native/hyptrace
WE=$HYPTRACE_BUILD/guest/write_events
[ -x "$HT" ] && [ -x "$WE" ] || fail "hyptrace or write_events not built: run make"
command -v trace-cmd >/dev/null || fail "trace-cmd not installed"
N=2000		# events per CPU while started
QUIET=50	# per CPU while stopped

dir=$TEST_LOGS/$TEST_NAME-files
rm -rf "$dir" && mkdir -p "$dir"
log=$TEST_LOGS/$TEST_NAME-smp4.log
rm -f "$log"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
netdev="user,id=n0,restrict=on,net=10.0.2.0/24"
netdev+=",hostfwd=tcp:127.0.0.1:$port-10.0.2.15:7000"

# shellcheck disable=SC2016 # expands in the guest
GUEST='
ifconfig lo 127.0.0.1 up
ifconfig eth0 10.0.2.15 netmask 255.255.255.0 up || exit 1
hyptrace agent -N 10.0.2.15:7000 --idle-s 5 -e selftest -b 4096 >/tmp/agent.log 2>&1 &
apid=$!
# waitn TEXT N: the agent has said TEXT N times
waitn() {
	i=0
	until [ "$(grep -c "$1" /tmp/agent.log)" -ge $2 ]; do
		sleep 0.1; i=$((i + 1))
		if [ $i -gt 1500 ] || ! kill -0 $apid 2>/dev/null; then
			echo "@gave up waiting for: $1 x$2"; sed "s/^/@agent /" /tmp/agent.log; exit 1
		fi
	done
}
events() {
	for c in 0 1 2 3; do /root/write_events $c $(($1 + c * 100000 + 1)) $2 >/dev/null || exit 1; done
}
waitn "listening on" 1
echo "@agent ready"
for k in 1 2 3; do
	waitn "started (round" $k
	echo "@round $k started"
	events $((k * 1000000)) '$N'
	echo "@round $k written"
	waitn "stopped (round" $k
	events $((k * 1000000 + 900000)) '$QUIET'
	echo "@round $k quiet"
done
waitn "the client is gone" 5
kill $apid
wait $apid
echo "@agent_rc=$?"
sed "s/^/@agent /" /tmp/agent.log
'

# wait_log REGEX SECS: the console (written as it comes) has a line
wait_log() {
	local i
	for ((i = 0; i < $2 * 5; i++)); do
		grep -aqE -- "$1" "$log" 2>/dev/null && return 0
		kill -0 "$bpid" 2>/dev/null || break
		sleep 0.2
	done
	grep -aqE -- "$1" "$log" 2>/dev/null ||
		fail "no console line '$1' in $2 s: $(grep -a '^@' "$log" 2>/dev/null | tail -n 3 | tr '\n' ' ')"
}

(
	BOOT_TIMEOUT=600 boot smp4 --add "$WE" --cmd "$GUEST" -- \
		-netdev "$netdev" -device virtio-net-device,netdev=n0
	echo "$BOOT_RC" >"$dir/boot.rc"
	printf '%s' "$BOOT_MSG" >"$dir/boot.msg"
) &
bpid=$!
lpid=
apy=
# A failing command here would become the script's exit status after its
# verdict (the last one's status is the trap's): what is gone is gone.
cleanup() {
	[ -z "$lpid" ] || kill "$lpid" 2>/dev/null || true
	[ -z "$apy" ] || kill "$apy" 2>/dev/null || true
	kill "$bpid" 2>/dev/null || true
	wait 2>/dev/null || true
}
trap cleanup EXIT

# listen_round K: hyptrace listen -N for the guest's round K, into cK.dat
listen_round() {
	local k=$1 lrc=0
	rm -f "$dir/cmd$k"
	mkfifo "$dir/cmd$k"
	"$HT" listen -N "127.0.0.1:$port" -o "$dir/c$k.dat" <"$dir/cmd$k" \
		>"$dir/listen$k.log" 2>&1 &
	lpid=$!
	exec 3>"$dir/cmd$k"
	echo start >&3
	wait_log "^@round $k started" 60
	wait_log "^@round $k written" 120
	echo stop >&3
	wait_log "^@round $k quiet" 120
	echo quit >&3
	exec 3>&-
	wait "$lpid" || lrc=$?
	lpid=
	[ "$lrc" = 0 ] || fail "hyptrace listen (client $k) exited $lrc: $(tail -n 2 "$dir/listen$k.log")"
}

wait_log '^@agent ready' 300
start=$(date +%s.%N)
listen_round 1
t1=$(date +%s.%N)

# garbage: an error message back, the connection closed
python3 - "$port" >"$dir/garbage.out" 2>&1 <<'PY' || fail "garbage client: $(tail -n 2 "$dir/garbage.out")"
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=20)
s.sendall(b"bogus\x01order\n")
got = b""
while True:
    d = s.recv(4096)
    if not d:
        break
    got += d
print(got.decode(errors="replace"))
sys.exit(0 if got.startswith(b"error ") and b"unknown order" in got else 1)
PY

# a client that says nothing: dropped after --idle-s, with an error message
python3 - "$port" >"$dir/silent.out" 2>&1 <<'PY' || fail "silent client: $(tail -n 2 "$dir/silent.out")"
import socket, sys, time
t = time.time()
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=30)
got = b""
while True:
    d = s.recv(4096)
    if not d:
        break
    got += d
print("%.1f s: %s" % (time.time() - t, got.decode(errors="replace")))
sys.exit(0 if got.startswith(b"error ") and b"nothing from the client in 5 s" in got else 1)
PY

# client 3 starts a round and keeps reading; a second client is refused
python3 - "$port" "$dir" >"$dir/a.out" 2>&1 <<'PY' &
import os, socket, sys, time
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=20)
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
while not os.path.exists(os.path.join(sys.argv[2], "a.close")):
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
for _ in $(seq 100); do [ -e "$dir/a.started" ] && break; sleep 0.2; done
[ -e "$dir/a.started" ] || fail "client 3 did not start a round: $(cat "$dir/a.out")"
wait_log "^@round 2 started" 60
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
wait_log "^@round 2 written" 120
kill -0 "$apy" 2>/dev/null || fail "client 3 was dropped when the second came: $(cat "$dir/a.out")"
touch "$dir/a.close"
arc=0
wait "$apy" || arc=$?
apy=
[ "$arc" = 0 ] || fail "client 3: $(cat "$dir/a.out")"
wait_log "^@round 2 quiet" 120

t2=$(date +%s.%N)
listen_round 3
t3=$(date +%s.%N)
wait "$bpid" || true
BOOT_LOG=$log
BOOT_RC=$(cat "$dir/boot.rc")
BOOT_MSG=$(cat "$dir/boot.msg")
BOOT_CASE=smp4
expect_ok
[ "$(value agent_rc)" = 0 ] || fail "the agent exited $(value agent_rc) on SIGTERM, want 0: $(grep -a '^@agent ' "$log" | tail -n 3)"

total=0
for k in 1 3; do
	"$TC_REPORT" -i "$dir/c$k.dat" >"$dir/c$k.txt" 2>"$dir/c$k.err" ||
		fail "trace-cmd report of client $k's file failed: $(head -n 2 "$dir/c$k.err")"
	[ ! -s "$dir/c$k.err" ] || fail "trace-cmd report warned on client $k's file: $(head -n 2 "$dir/c$k.err")"
	for c in 0 1 2 3; do
		awk -v c="[00$c]" '$2 == c && $4 == "selftest:" {sub("id=", "", $5); print $5}' \
			"$dir/c$k.txt" >"$dir/ids$k.$c"
		dup=$(sort "$dir/ids$k.$c" | uniq -d | wc -l)
		[ "$dup" = 0 ] || fail "client $k, CPU $c: $dup events arrived twice"
		got=$(awk -v lo=$((k * 1000000 + c * 100000 + 1)) -v n=$N \
			'$1 >= lo && $1 < lo + n' "$dir/ids$k.$c" | wc -l)
		[ "$got" = "$N" ] || fail "client $k, CPU $c: $got of $N events arrived"
		other=$(($(wc -l <"$dir/ids$k.$c") - got))
		[ "$other" = 0 ] || fail "client $k, CPU $c: $other events of another round or written while stopped"
		total=$((total + got))
	done
done
lost=$(cat "$dir/c1.txt" "$dir/c3.txt" | grep -c 'LOST' || true)
[ "$lost" = 0 ] || fail "$lost lost-event marks"

grep -aq "^@agent hyptrace agent: unknown order 'bogus?order' on the connection .*; dropping the client" "$log" ||
	fail "no one-line error for the garbage client: $(grep -a '^@agent hyptrace agent: u' "$log" | head -n 2)"
[ "$(grep -ac '^@agent hyptrace agent: unknown order' "$log")" = 1 ] || fail "more than one line for the garbage client"
grep -aq '^@agent hyptrace agent: nothing from the client in 5 s; dropping the client' "$log" ||
	fail "the agent did not drop the silent client"
grep -aq '^@agent hyptrace agent: a second client refused while one is served' "$log" ||
	fail "the agent did not say it refused the second client"
grep -aq '^@agent hyptrace agent: the client went away in the middle of a round: stopping it' "$log" ||
	fail "the agent did not stop the round of the client that went away"
expect_healthy
info "client 1: $(tail -n 1 "$dir/listen1.log" | sed 's/^ *//')"
info "client 4: $(tail -n 1 "$dir/listen3.log" | sed 's/^ *//')"
pass "$(printf '%s' "agent -N served 5 clients in turn and refused 1, over QEMU hostfwd 127.0.0.1:$port: $total events from 2 listeners, each once, none while stopped or from the dropped round; garbage, a silent and a second client got errors, a vanished client's round was stopped" \
	"$(awk -v a="$start" -v b="$t1" -v c="$t2" -v d="$t3" 'BEGIN {printf " (listen rounds %.1f s, %.1f s)", b - a, d - c}')")"
