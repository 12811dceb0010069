#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of 66-stock-tracing.sh: the kernel's ftrace selftests for
# the hypervisor remote (test.d/remotes/hypervisor/), copied and pointed
# at hyptrace-dir's answer (@dir) instead of remotes/hypervisor: the
# directory swapped in test.d/remotes/functions, and the "requires" lines
# that name the remote's files gone. ftracetest -v's output on the console,
# then the release (@release).
#
# usage: 66-stock-tracing.sh
D=$(hyptrace-dir) || exit 1
echo "@dir=$D"
rm -rf /tmp/ft && cp -r /usr/share/kselftest/ftrace /tmp/ft && cd /tmp/ft || exit 1
sed -i "s#\$TRACING_DIR/remotes/\$name/#$D/#; s#cd remotes/\$name/#cd $D/#" \
	test.d/remotes/functions
sed -i "/^# requires: remotes\/hypervisor/d" test.d/remotes/hypervisor/*.tc
# On the console as it goes (as 70-ftrace-remotes does): a boot that runs
# out of time shows which step it was in.
./ftracetest -v test.d/remotes/hypervisor/ 2>&1
echo "@release=$(uname -r)"
