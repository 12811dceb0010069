#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# EL1's calls to firmware services go to firmware whole, and those that
# would have the secure world write into the hypervisor's memory do not
# (hyp/core/fw_forward.c). fwcall_probe.ko makes each call with x0..x17
# set; QEMU's firmware answers what reaches it NOT_SUPPORTED (-1) and
# leaves x1..x17 as they came:
# - a SiP call (SMC32), a SiP call (SMC64) with the SVE hint bit, a
#   yielding trusted-OS call, TRNG_VERSION and OP-TEE's CALL_WITH_ARG with
#   its message in a kernel page come back -1 with x1..x17 kept, and the
#   trace shows each leave for firmware and come back (hyp_exit and
#   hyp_enter reason=firmware with its function ID, the SVE hint kept);
# - OP-TEE's CALL_WITH_ARG with its message in the hypervisor's memory is
#   answered EBADADDR (4), FF-A RXTX_MAP with a buffer there FFA_ERROR
#   with INVALID_PARAMETERS, SDEI_VERSION and the SiP call made by HVC
#   NOT_SUPPORTED, and none of them reaches firmware.
# shellcheck source=tests/boot/lib.sh
. "$(dirname "$0")/lib.sh"

# The guest side: guest/probe-trace.sh, with the firmware exits as @F lines
boot smp2 --add "$(trace_on_file 64 hyp_enter hyp_exit)" \
	--add "$GUEST_DIR/probe-trace.sh" --cmd "sh /root/probe-trace.sh fwcall_probe firmware @F"
expect_ok
[ "$(value insmod)" = 0 ] || fail "fwcall_probe.ko did not load (status '$(value insmod)')"
expect_line 'fwcall_probe: done'
firmware=$(grep -a '^@F ' "$BOOT_LOG" | sed 's/^@F //; s/\r$//' || true)

# answer NAME: "x0 x2 kept" of the probe's line for NAME
answer() {
	grep -a "fwcall_probe: $1 fid=" "$BOOT_LOG" | tail -n 1 |
		sed -E 's/.* x0=(0x[0-9a-f]+) x2=(0x[0-9a-f]+) kept=([01]).*/\1 \2 \3/'
}

# passed NAME FID: firmware answered, x1..x17 kept, the trace shows it
passed() {
	local got
	got=$(answer "$1")
	[ "${got%% *}" = 0xffffffffffffffff ] ||
		fail "$1: x0 came back '${got%% *}', want firmware's NOT_SUPPORTED (-1)"
	[ "${got##* }" = 1 ] || fail "$1: x1..x17 did not come back as they went"
	grep -q "hyp_exit reason=firmware func_id=$(printf '0x%x' "$2") " <<<"$firmware" ||
		fail "$1: no 'hyp_exit reason=firmware func_id=$(printf '0x%x' "$2")' in the trace: not passed to firmware"
	grep -q "hyp_enter reason=firmware func_id=$(printf '0x%x' "$2")\$" <<<"$firmware" ||
		fail "$1: no 'hyp_enter reason=firmware func_id=$(printf '0x%x' "$2")': firmware's answer not traced"
}

# kept_back NAME FID X0 [X2]: answered here with X0 (and X2), never passed
kept_back() {
	local got
	got=$(answer "$1")
	[ "${got%% *}" = "$3" ] || fail "$1: x0 came back '${got%% *}', want $3"
	if [ -n "${4:-}" ]; then
		got=${got#* }
		[ "${got%% *}" = "$4" ] || fail "$1: x2 came back '${got%% *}', want $4"
	fi
	! grep -qE "reason=firmware func_id=$(printf '0x%x' "$2")( |\$)" <<<"$firmware" ||
		fail "$1: passed to firmware, it must not be"
}

passed sip 0x82000010
passed sip64_sve 0xc2010010
passed tos_yield 0x32000010
passed trng 0x84000050
passed optee_ok 0x32000004
kept_back sdei 0xc4000020 0xffffffffffffffff
kept_back sip_hvc 0x82000011 0xffffffffffffffff
kept_back ffa_hyp 0xc4000066 0x84000060 0xfffffffe
# optee_ok went to firmware with the same ID: look at the answer only
got=$(answer optee_hyp)
[ "${got%% *}" = 0x4 ] || fail "optee_hyp: x0 came back '${got%% *}', want OP-TEE's EBADADDR (0x4)"
n=$(grep -c "hyp_exit reason=firmware func_id=0x32000004 " <<<"$firmware" || true)
[ "$n" = 1 ] ||
	fail "OP-TEE CALL_WITH_ARG reached firmware $n times, want once (the message in a kernel page, not the one in the hypervisor's memory)"
expect_healthy
pass "SiP (SMC32, SMC64 with the SVE hint), yielding trusted-OS, TRNG and OP-TEE calls passed to firmware with x1..x17 kept, each traced; OP-TEE and FF-A addresses in the hypervisor's memory refused (EBADADDR, INVALID_PARAMETERS), SDEI and SiP-by-HVC not passed"
