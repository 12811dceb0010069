#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Hypercalls from the guest kernel (hvc_probe.ko): the hyptrace calls answer
# as shared/hyptrace_abi.h says, and function IDs the hypervisor does not
# know answer NOT_SUPPORTED (-1) without harm to the guest. HYP_LOG (ABI 1.7)
# gives the log's first 8 bytes ("hyptrace", as every line starts) at 0, the
# end and nothing past it, NOT_LOADED for the last boot's log on a cold boot
# and INVALID for a log that does not exist.
# shellcheck source=tests/boot/lib.sh
. "$(dirname "$0")/lib.sh"

# Unknown IDs: vendor-hyp fast 32/64 (unused numbers, the reserved 0xff02
# slot), a vendor-hyp yielding call, and other owners' ranges (SiP, OEM,
# standard hypervisor, trusted apps, trusted OS).
UNKNOWN="0xc600beef 0x8600ff02 0xc6001234 0x86000001 0x06000001
	0x82000100 0xc3001234 0xc5000020 0xb0000000 0xf2000001"

HYP_LOG=0xc6000010	# HYPTRACE_CALL_HYP_LOG, HYPTRACE_CALL(16)

# result FID: the hvc_probe line for FID, without the prefix.
result() {
	local line
	line=$(grep -E -o "hvc_probe: fid=0x0*${1#0x} ret=.*" "$BOOT_LOG" | tail -n 1)
	[ -n "$line" ] || fail "no hvc_probe line for fid=$1"
	echo "${line#hvc_probe: }"
}

# expect_result FID 'ret=... a1=...': the answer starts like that.
expect_result() {
	local got
	got=$(result "$1")
	[[ $got == "fid=$(printf '0x%08x' "$1") $2"* ]] ||
		fail "$1 answered '$got', want '$2'"
}

# The guest side: guest/50-hvc.sh
boot smp4 --add "$GUEST_DIR/50-hvc.sh" \
	--cmd "sh /root/50-hvc.sh $HYP_LOG $(tr -s ' \n\t' ' ' <<<"$UNKNOWN") 0xc6000000 0x8600ff01 0x8600ff03"
expect_ok
[ "$(value alive)" = 42 ] || fail "the guest did not run a command after the probes"

for f in $UNKNOWN; do
	expect_result "$f" "ret=-1 "
done
# The ABI of shared/hyptrace_abi.h, 4 CPUs, tracing.
major=$(abi_define ABI_MAJOR)
minor=$(abi_define ABI_MINOR)
expect_result 0xc6000000 "ret=0 a1=$(printf '0x%x' $((major << 16 | minor))) a2=0x4 a3=0x1"
# The UID 8772a36d-8849-4f02-9d89-7a85aa273b49 in x0..x3 (x0 as signed long).
expect_result 0x8600ff01 "ret=1839428231 a1=0x24f4988 a2=0x857a899d a3=0x493b27aa"
# Revision: the ABI's major in x0, minor in x1.
expect_result 0x8600ff03 "ret=$major a1=$(printf '0x%x' "$minor")"
# HYP_LOG: "hyptrace" little-endian at 0; past the end, the end and no bytes
expect_line "^@log_start fid=$HYP_LOG ret=0 a1=0x0 a2=0x[0-9a-f]+ a3=0x6563617274707968\$" \
	"HYP_LOG's first bytes"
end=$(grep -a -o "^@log_start .* a2=0x[0-9a-f]*" "$BOOT_LOG" | tail -n 1 | sed 's/.*a2=//')
expect_line "^@log_past fid=$HYP_LOG ret=0 a1=$end a2=$end a3=0x0\$" "HYP_LOG past the end"
expect_line "^@log_last fid=$HYP_LOG ret=$(abi_define RET_NOT_LOADED | tr -d '()') " \
	"no last boot's log on a cold boot"
expect_line "^@log_bad fid=$HYP_LOG ret=-3 " "HYP_LOG of a log that does not exist"
expect_healthy
pass "$(wc -w <<<"$UNKNOWN") unknown IDs answer -1; VERSION, CALL_UID, REVISION and HYP_LOG answer per hyptrace_abi.h"
