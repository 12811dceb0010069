#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of 92-clock-align.sh: `hyptrace agent` (agent.sh), then
# three rounds the listener starts and stops: N selftest events per CPU
# once started ("@round R written"), then wait for the stop; after the
# last, time for the listener's clock exchanges, the agent ended (its
# status as @agent_rc, its output as @agent lines).
#
# usage: 92-clock-align.sh N (with /root/agent.sh, /root/write_events)
# (before the first command: for the whole file)
# shellcheck disable=SC2154 # $alog and $apid are agent_start's (agent.sh)
n=$1
# shellcheck source=/dev/null # agent_start, waitn (guest/agent.sh)
. /root/agent.sh
agent_start ready -e hyp_enter -e hyp_exit -e selftest -b 1024
for r in 1 2 3; do
	waitn "started (round $r)"
	for c in 0 1 2 3; do /root/write_events $c $((r * 1000000 + c * 100000 + 1)) "$n" >/dev/null || exit 1; done
	echo "@round $r written"
	waitn "stopped (round $r)"
done
# the listener times its clock exchanges after the last stop: then end
sleep 5
kill "$apid"
wait "$apid"
echo "@agent_rc=$?"
sed "s/^/@agent /" "$alog"
