#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The hypervisor's log as hyptrace.ko puts it in dmesg, as "@dmesg" lines
# without the "hyptrace: " prefix (a console line with "hyptrace: PANIC"
# in it would stop qemu-run.sh)
#
# usage: hyp-dmesg.sh
dmesg | grep "hyptrace: " | sed "s/^.*hyptrace: /@dmesg /"
