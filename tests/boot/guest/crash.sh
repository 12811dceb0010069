#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A deliberate panic, for the tests that read its trace on the next boot
# (59-hostile-page, 89-last-boot): "@deliberate_crash" first, on a line of
# its own (tests/kasan.sh tells this panic from a real one by it), then
# sysrq c. Should the kernel go on, "@no_panic" says so and the script
# fails.
#
# usage: . /root/crash.sh (sourced: the caller never goes past it)
echo "@deliberate_crash"
echo c > /proc/sysrq-trigger
sleep 10
echo "@no_panic"
exit 1
