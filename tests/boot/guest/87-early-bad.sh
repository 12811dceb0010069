#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of 87-early.sh's boot with a bad hyptrace.early: what
# buffer_size_kb (@size) and hyp_enter's enable (@on) read when the
# hypervisor refused to capture early.
#
# usage: 87-early-bad.sh
cd "$(hyptrace-dir)" || exit
echo "@size=$(cut -d" " -f2 buffer_size_kb) @on=$(cat events/hypervisor/hyp_enter/enable)"
