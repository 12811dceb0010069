#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of 43-console-dt.sh's boot with no console: the
# hypervisor's log as hyptrace.ko shows it, in dmesg ("@hyp" lines, the
# "hyptrace: hyp: " prefix cut) and in hyp_log ("@file" lines).
#
# usage: 43-console-dt.sh
dmesg | grep "hyptrace: hyp: " | sed "s/^.*hyptrace: hyp: /@hyp /"
sed "s/^/@file /" "$(hyptrace-dir)/hyp_log"
