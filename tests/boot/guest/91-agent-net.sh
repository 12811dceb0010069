#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of 91-agent-net.sh: the network up; `hyptrace agent -N`
# (agent.sh) with the key /root/agent.key, its lines on the console as they
# come (@live, with the guest's uptime); five rounds its clients start and
# stop: N selftest events per CPU once started (round 2: NBIG after 2 s,
# then, once the agent drops pages and 10 s more, N), tracing_on once
# stopped (@tracing_on_K) and QUIET per CPU, each step as an "@round K
# ..." line; after the seventh client has gone, the agent ended by SIGTERM
# (@agent_rc, @agent lines). Then a second agent that no client reaches:
# tracing_on and the trace's selftest events while it waits
# (@idle_tracing_on, @idle_events), its status, time to end, tracing_on
# and lines of output after SIGTERM (@agent2_rc, @agent2_s,
# @agent2_tracing_on, @agent2_lines, @agent2 lines).
#
# usage: 91-agent-net.sh N NBIG QUIET (with /root/agent.sh,
#        /root/agent.key, /root/write_events)
# (before the first command: for the whole file)
# shellcheck disable=SC2154 # $alog and $apid are agent_start's (agent.sh)
n=$1
nbig=$2
quiet=$3
ifconfig lo 127.0.0.1 up
ifconfig eth0 10.0.2.15 netmask 255.255.255.0 up || exit 1
# events FIRST COUNT: COUNT selftest events on each CPU, CPU c's ids
# FIRST + c * 100000 + 1 on
events() {
	for c in 0 1 2 3; do /root/write_events $c $(($1 + c * 100000 + 1)) "$2" >/dev/null || exit 1; done
}
td=$(hyptrace-dir)
# shellcheck source=/dev/null # agent_start, waitn (guest/agent.sh)
. /root/agent.sh
agent_start "listening on" -N 10.0.2.15:7000 --key /root/agent.key --idle-s 5 -e selftest -b 4096
# the lines of the agent on the console as they come, with the uptime of
# the guest: a test that fails half-way (its boot ended) still shows what
# the agent said and when
tail -f "$alog" | while read -r l; do echo "@live $(cut -d" " -f1 /proc/uptime) $l"; done &
for k in 1 2 3 4 5; do
	waitn "started (round" $k
	echo "@round $k started"
	if [ $k = 2 ]; then
		sleep 2
		events 2000000 "$nbig"
		echo "@round $k written"
		waitn "dropping pages"
		echo "@round $k dropping"
		sleep 10
		events 2700000 "$n"
		echo "@round $k more"
	else
		events $((k * 1000000)) "$n"
		echo "@round $k written"
	fi
	waitn "stopped (round" $k
	echo "@tracing_on_$k=$(cat "$td/tracing_on")"
	events $((k * 1000000 + 900000)) "$quiet"
	echo "@round $k quiet"
done
# the departure of the seventh client; "the client: the client is gone",
# the error of a client that left in the middle of a send, must not count
waitn "the client is gone; listening" 7
kill "$apid"
wait "$apid"
echo "@agent_rc=$?"
sed "s/^/@agent /" "$alog"

# an agent that no client reaches: waits with tracing off, SIGTERM ends it
alog=/tmp/agent2.log
hyptrace agent -N 10.0.2.15:7000 --key /root/agent.key -e selftest >$alog 2>&1 &
apid=$!
waitn "listening on"
/root/write_events 0 7000001 20 >/dev/null || exit 1
sleep 1
echo "@idle_tracing_on=$(cat "$td/tracing_on")"
echo "@idle_events=$(grep -c "selftest id=" "$td/trace")"
t0=$(cut -d" " -f1 /proc/uptime)
kill -TERM $apid
wait $apid
echo "@agent2_rc=$?"
echo "@agent2_s=$(awk -v a="$t0" -v b="$(cut -d" " -f1 /proc/uptime)" "BEGIN {print b - a}")"
echo "@agent2_tracing_on=$(cat "$td/tracing_on")"
echo "@agent2_lines=$(wc -l <$alog)"
sed "s/^/@agent2 /" $alog
