#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# For the guest sides of the tests that talk to `hyptrace agent` while it
# runs (88-virtio-agent, 91-agent-net, 92-clock-align), which source it:
# ". /root/agent.sh".
#
# agent_start READY ARGS...: `hyptrace agent ARGS` in the background, its
# output in $alog, its pid in $apid; once the output says READY, "@agent
# ready" on the console, for the test's wait_log.
#
# waitn TEXT [N]: waits until the agent's output ($alog) has TEXT at least
# N times (1), or gives up (with the output as @agent lines, exit 1) after
# 150 s or when the agent ($apid) is gone.

waitn() {
	i=0
	until [ "$(grep -c "$1" "$alog")" -ge "${2:-1}" ]; do
		sleep 0.1; i=$((i + 1))
		if [ $i -gt 1500 ] || ! kill -0 "$apid" 2>/dev/null; then
			echo "@gave up waiting for: $1 x${2:-1}"; sed "s/^/@agent /" "$alog"; exit 1
		fi
	done
}

agent_start() {
	ready=$1
	shift
	alog=/tmp/agent.log
	hyptrace agent "$@" > "$alog" 2>&1 &
	apid=$!
	waitn "$ready"
	echo "@agent ready"
}
