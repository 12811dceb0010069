#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of 55-trace-abi.sh: one hypercall per argument, in order,
# through hvc_probe.ko, each answer as "@NAME=fid=...,ret=...,a1=..."
# (hvc_probe's line, spaces made commas); last "@alive=42": the guest
# still works after them all.
#
# usage: 55-trace-abi.sh 'NAME|HVC_PROBE_ARGS'...
#   e.g. 55-trace-abi.sh 'load|fid=0xc6000002 a1=8192'

# probe ARGS...: hvc_probe.ko's answer to one call
probe() {
	insmod /lib/modules/hyptrace/hvc_probe.ko "$@" && rmmod hvc_probe
	dmesg | grep "hvc_probe: fid=" | tail -n 1 | sed "s/^.*hvc_probe: //; s/ /,/g"
}

for call in "$@"; do
	# the arguments split on purpose, as hvc_probe.ko's parameters
	# shellcheck disable=SC2086
	echo "@${call%%|*}=$(probe ${call#*|})"
done
echo "@alive=$((6 * 7))"
