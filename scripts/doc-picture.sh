#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Regenerate the README's pictures from a real recording (make doc-picture,
# after make all): boot the hypervisor and Linux in QEMU, run hyptrace
# record in the guest while CPUs 1-3 go off and on and eight selftest
# events are written, bring the trace.dat back over the console (base64,
# as the boot tests do), photograph it in KernelShark
# (scripts/doc-screenshot.sh: Documentation/images/kernelshark.png) and
# draw its time in EL2 with scripts/timeline-svg.py
# (Documentation/images/timeline.svg). The trace.dat is kept in
# $HYPTRACE_BUILD/doc/picture/ beside the console log.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

dir=$HYPTRACE_BUILD/doc/picture
out=$HYPTRACE_TOP/Documentation/images/timeline.svg
mkdir -p "$dir"

cat >"$dir/guest.sh" <<'EOF'
cd /root
hyptrace record -o trace.dat -- sh -c 'for c in 1 2 3; do echo 0 > /sys/devices/system/cpu/cpu$c/online; echo 1 > /sys/devices/system/cpu/cpu$c/online; done; for i in 1 2 3 4 5 6 7 8; do echo $i > /sys/kernel/tracing/remotes/hypervisor/write_event; done'
echo "@B64 trace.dat"; base64 trace.dat; echo "@END trace.dat"
EOF

step "recording in QEMU (console: $dir/boot.log)"
"$HYPTRACE_TOP/qemu-run.sh" --no-build --quiet --log "$dir/boot.log" \
	--timeout 600 --add "$dir/guest.sh" --cmd 'sh /root/guest.sh'
tr -d '\r' <"$dir/boot.log" | sed -n '/^@B64 trace.dat$/,/^@END trace.dat$/p' |
	sed '1d;$d' | base64 -d >"$dir/trace.dat"
"$HYPTRACE_BUILD/tools/native/hyptrace" report "$dir/trace.dat" |
	python3 "$HYPTRACE_TOP/scripts/timeline-svg.py" \
	"hyptrace: time in EL2 per CPU while CPUs 1-3 go off and on (QEMU virt, 4 x cortex-a57)" \
	>"$out"
note "wrote $out from $dir/trace.dat"
step "photographing it in KernelShark"
bash "$HYPTRACE_TOP/scripts/doc-screenshot.sh" "$dir/trace.dat" \
	"$HYPTRACE_TOP/Documentation/images/kernelshark.png"
