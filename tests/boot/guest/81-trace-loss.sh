#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of 81-trace-loss.sh: K selftest events, ids 1..K, written
# from CPU into the buffer trace-on.sh set up, then that CPU's trace_pipe
# as @P lines.
#
# usage: 81-trace-loss.sh K CPU (with /root/trace-on.sh, see lib.sh)
k=$1
cpu=$2
# In this shell: it leaves us in the trace directory, under set -e
# shellcheck source=/dev/null # trace_on_script's commands (tests/boot/lib.sh)
. /root/trace-on.sh
# shellcheck disable=SC2016 # expands in the shell taskset runs
taskset -c "$cpu" sh -c 'i=1; while [ "$i" -le "$1" ]; do echo "$i" > write_event; i=$((i + 1)); done' _ "$k"
echo 0 > tracing_on
timeout 3 cat "per_cpu/cpu$cpu/trace_pipe" > /tmp/pipe || true
sed "s/^/@P /" /tmp/pipe
