#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of 56-buffer-size.sh: buffer sizes too large for the
# carve-out refused, each refusal said in dmesg at most so often (BURST
# tries twice, a second apart), and the buffer usable afterwards.
#
# usage: 56-buffer-size.sh HUGE_KB BURST
huge_kb=$1
burst=$2
cd "$(hyptrace-dir)" || exit 1
echo 0 > tracing_on
# try FILE VALUE KEY: "@KEY=ok", or the error the shell reports, spaces as _
try() {
	if echo "$2" > "$1" 2>/tmp/err; then
		echo "@$3=ok"
	else
		echo "@$3=$(sed "s/.*: //; s/ /_/g" /tmp/err)"
	fi
}
try buffer_size_kb 18446744073709551615 kb_max
try buffer_size_kb 18014398509481984 kb_2p54
try buffer_size_kb "$huge_kb" kb_huge
echo "@kb=$(cut -d" " -f1 buffer_size_kb)"
for _ in $(seq "$burst"); do try tracing_on 1 burst1; done
sleep 1
for _ in $(seq "$burst"); do try tracing_on 1 burst2; done
dmesg | grep "hyptrace: buffer_size_kb" | sed "s/^/@M /"
echo "@lines=$(dmesg | grep -c "hyptrace: buffer_size_kb")"
echo 7 > buffer_size_kb
echo 1 > tracing_on
echo 0 > tracing_on
echo "@sane=ok"
