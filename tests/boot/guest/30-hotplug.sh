#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of 30-hotplug.sh: every secondary CPU offline and online
# again, one at a time and all together, idle and while every CPU runs a
# busy loop, ROUNDS times each. Each step checks what sysfs says, so a CPU
# that silently fails to come back is caught where it happens.
#
# usage: 30-hotplug.sh ROUNDS
set -e
rounds=$1
cpus=/sys/devices/system/cpu
# shellcheck disable=SC2012 # CPU directories: plain names
last=$(( $(ls -d $cpus/cpu[0-9]* | wc -l) - 1 ))
want=$(cat $cpus/online)
set_cpu() { echo "$2" > "$cpus/cpu$1/online"; }
check() {
	got=$(cat $cpus/online)
	[ "$got" = "$1" ] || { echo "@error=$2:online=$got,want=$1"; exit 1; }
}
cycle() {
	for r in $(seq 1 "$1"); do
		for c in $(seq 1 "$last"); do
			set_cpu "$c" 0
			set_cpu "$c" 1
		done
		check "$want" "round$r-$2"
		# All secondaries off together, then all on.
		for c in $(seq 1 "$last"); do set_cpu "$c" 0; done
		check 0 "round$r-$2-alloff"
		for c in $(seq 1 "$last"); do set_cpu "$c" 1; done
		check "$want" "round$r-$2-allon"
	done
}
cycle "$rounds" idle
echo "@idle=done"
# One busy loop per CPU; the scheduler moves them as CPUs come and go.
load=
for c in $(seq 0 "$last"); do
	sh -c 'while :; do :; done' &
	load="$load $!"
done
cycle "$rounds" busy
# shellcheck disable=SC2086 # one PID a word
kill $load
wait 2>/dev/null || true
echo "@busy=done"
echo "@online=$(cat $cpus/online)"
