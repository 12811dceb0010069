#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of 46-hyp-log-panic.sh's second boot: the hypervisor's
# logs as hyptrace.ko shows them, in dmesg ("@dmesg"), the panicked last
# boot's hyp_log_last_boot ("@last") and this boot's hyp_log ("@this").
# The "hyptrace: " prefixes go: a console line with "hyptrace: PANIC" in
# it stops qemu-run.sh.
#
# usage: 46-hyp-log-panic.sh
dmesg | grep "hyptrace: " | sed "s/^.*hyptrace: /@dmesg /"
sed "s/^hyptrace: /@last /" "$(hyptrace-dir)/hyp_log_last_boot"
sed "s/^/@this /" "$(hyptrace-dir)/hyp_log"
