#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Firmware calls decoded (hyp/core/fw_trace.c): one event per service,
# fw_psci, fw_arch, fw_workaround and fw_trng, on QEMU virt with a device
# tree that gives the CPUs two PSCI idle states (virt-dtb-edit.py idle), so
# that Linux's own cpuidle-psci calls CPU_SUSPEND.
#
# - At boot (hyptrace.early=fw_psci+fw_arch+fw_trng): Linux's own CPU_ON of
#   CPUs 1-3 (target, its entry in RAM, context 0, success, time in
#   firmware) and its TRNG_VERSION probe (NOT_SUPPORTED from QEMU), read
#   from the remote's trace file (hyptrace.ko's printer); fw_workaround
#   was not asked for and does not show. A boot of its own, on QEMU's tree
#   without idle states: with them, cpuidle's CPU_SUSPENDs (each refused
#   at once by QEMU, and tried again) can wrap CPU 0's early buffer, and
#   with it the CPU_ONs, before the guest gets to read it.
# - A recording (hyptrace record, all four events) while cpuidle tries
#   both states, CPU 3 goes off and on, and fwcall_probe.ko decode=1 makes
#   its calls; stock trace-cmd reads it from the format files, and the
#   decoded fields must be exact: CPU_SUSPEND's power_state 0x1000001
#   (standby, StateID 1, level 1) and 0x1010002 (power-down, StateID 2,
#   level 1), both INVALID_PARAMETERS from QEMU's PSCI (see
#   virt-dtb-edit.py: a state QEMU accepts halts the vCPU for good),
#   CPU_OFF as it leaves (Linux's power_state 0x10000, ret 0, fw_ns 0) and
#   CPU_ON of target 3, SYSTEM_RESET2's type and cookie (refused by the
#   relay: fw_ns 0), ARCH_FEATURES of SMCCC_VERSION and SOC_ID (answered
#   here: fw_ns 0) and of WORKAROUND_1 (firmware's answer: fw_ns > 0),
#   SOC_ID, TRNG_RND64's status with the bits asked, and never the values
#   left in x2 and x3 (the entropy's registers: not in the trace.dat's
#   bytes at all); WORKAROUND_1's 1001 calls on one CPU counted in
#   fw_workaround summaries on that CPU, none a call by itself.
# - SCMI over SMC (fw_scmi.c) on the tree's channels (virt-dtb-edit.py
#   idle): the hypervisor says at boot which it decodes and refuses the one
#   whose shared memory is in its region; fwcall_probe.ko's messages show
#   with protocol, message id and token exactly as written into the shared
#   memory, the status as the first payload word after the call (QEMU has
#   no SCMI: it answers NOT_SUPPORTED, ret=-1, and leaves the memory as the
#   probe wrote it), for arm,scmi-smc and for arm,scmi-smc-param; the
#   -param call with an offset that is not its shared memory's, and the
#   refused channel's, are not decoded.
# - OP-TEE (fw_optee.c): CALL_WITH_ARG and CALL_WITH_REGD_ARG each a span
#   of one SMC (QEMU has no OP-TEE: UNKNOWN_FUNCTION, 0 RPCs), a
#   RETURN_FROM_RPC with no call before it a span marked resumed (flags
#   0x1), CALL_WITH_ARG with its message in the hypervisor's memory
#   refused by the hypervisor (EBADADDR, 0x4) without firmware time.
# - hyptrace stats gives per service the count and time of the calls, SCMI
#   per protocol and message, OP-TEE per span.
# shellcheck source=tests/boot/lib.sh
. "$(dirname "$0")/lib.sh"

HT=$HYPTRACE_BUILD/tools/native/hyptrace
[ -x "$HT" ] || fail "hyptrace not built: run make"
work=$(mktemp -d "${TMPDIR:-/tmp}/hyptrace-45d.XXXXXX")
trap 'rm -rf "$work"' EXIT
virt_dtb idle "$work/idle.dtb"

# The guest side of the boot with idle states: guest/45-fw-decode.sh

# ---- the boot, from the early buffer ----
# shellcheck disable=SC2016 # expands in the guest
boot early --append 'hyptrace.early=fw_psci+fw_arch+fw_trng,size=1024' \
	--cmd 'cd "$(hyptrace-dir)" && sed "s/^/@E /" trace'
expect_ok
early=$(grep -a '^@E ' "$BOOT_LOG" | sed 's/^@E //; s/\r$//' || true)
for t in 1 2 3; do
	grep -Eq "fw_psci CPU_ON x1=0x$t x2=0x4[0-9a-f]{7} x3=0x0 ret=0 fw_ns=[1-9][0-9]* state=- state_id=0x0 power_level=0\$" \
		<<<"$early" || fail "no decoded CPU_ON of CPU $t from Linux's boot in the early trace"
done
grep -Eq 'fw_trng TRNG_VERSION x1=0x[0-9a-f]+ status=-1 fw_ns=[1-9][0-9]*$' <<<"$early" ||
	fail "no TRNG_VERSION from Linux's boot (NOT_SUPPORTED from QEMU) in the early trace"
! grep -q 'fw_workaround' <<<"$early" || fail "fw_workaround in the early trace: it was not asked for"
! grep -q 'CPU_SUSPEND' <<<"$early" || fail "CPU_SUSPEND in the early trace of a tree without idle states"

boot idle --dtb "$work/idle.dtb" --add "$GUEST_DIR/45-fw-decode.sh" \
	--cmd "sh /root/45-fw-decode.sh"
expect_ok
[ "$(value rec_rc)" = 0 ] || fail "hyptrace record exited '$(value rec_rc)'"
[ "$(value insmod)" = 0 ] || fail "fwcall_probe.ko decode=1 did not load (status '$(value insmod)')"
info "cpuidle tries during the recording: retention $(value idle1), power-down $(value idle2)"


# ---- the recording, through stock trace-cmd ----
dir=$TEST_LOGS/$TEST_NAME-files
rm -rf "$dir" && mkdir -p "$dir"
guest_file fw.dat "$dir/fw.dat"
"$TC_REPORT" -i "$dir/fw.dat" >"$dir/report.txt" 2>"$dir/report.err" ||
	fail "trace-cmd report failed: $(head -n 2 "$dir/report.err")"
[ ! -s "$dir/report.err" ] || fail "trace-cmd report warned: $(head -n 2 "$dir/report.err")"
rep=$(sed -nE 's/^.*\[([0-9]+)\] +[0-9.]+: (fw_[a-z]+): +(.*)$/\1 \2: \3/p' "$dir/report.txt")
[ -n "$rep" ] || fail "no fw_ event in trace-cmd's report ($dir/report.txt)"

# has 'extended regex' WHAT: some decoded event matches
has() {
	grep -Eq -- "$1" <<<"$rep" || fail "$2: no '$1' in trace-cmd's report ($dir/report.txt)"
}
has 'fw_psci: CPU_SUSPEND x1=0x1000001 x2=0x0 x3=0x0 ret=-2 fw_ns=[1-9][0-9]* state=standby state_id=0x1 power_level=1$' \
	"cpuidle's retention state"
has 'fw_psci: CPU_SUSPEND x1=0x1010002 x2=0x4[0-9a-f]{7} x3=0x[0-9a-f]+ ret=-2 fw_ns=[1-9][0-9]* state=powerdown state_id=0x2 power_level=1$' \
	"cpuidle's power-down state"
has 'fw_psci: CPU_OFF x1=0x10000 x2=0x0 x3=0x0 ret=0 fw_ns=0 state=- state_id=0x0 power_level=0$' \
	"CPU 3 going off (Linux passes a power-down power_state)"
has 'fw_psci: CPU_ON x1=0x3 x2=0x4[0-9a-f]{7} x3=0x0 ret=0 fw_ns=[1-9][0-9]* state=- state_id=0x0 power_level=0$' \
	"CPU 3 coming back"
has 'fw_psci: SYSTEM_RESET2 x1=0x80000001 x2=0x1234 x3=0x0 ret=-1 fw_ns=0 state=- state_id=0x0 power_level=0$' \
	"SYSTEM_RESET2, refused by the relay"
has 'fw_arch: ARCH_FEATURES x1=0x80000000 ret=0 fw_ns=0$' "ARCH_FEATURES(SMCCC_VERSION)"
has 'fw_arch: ARCH_FEATURES x1=0x80000002 ret=-1 fw_ns=0$' "ARCH_FEATURES(SOC_ID)"
has 'fw_arch: ARCH_FEATURES x1=0x80008000 ret=-1 fw_ns=[1-9][0-9]*$' "ARCH_FEATURES(WORKAROUND_1), asked of firmware"
has 'fw_arch: SOC_ID x1=0x0 ret=-1 fw_ns=0$' "SOC_ID"
has 'fw_trng: TRNG_RND64 x1=0xc0 status=-1 fw_ns=[1-9][0-9]*$' "TRNG_RND64's status"
! grep -q 'fw_arch: WORKAROUND_' <<<"$rep" || fail "a workaround call recorded by itself"

# SCMI: the header as the probe wrote it, the status after the call
grep -q 'hyptrace: SCMI scmi: function 0x82000010, shared memory at 0x4f000000$' "$BOOT_LOG" ||
	fail "the hypervisor did not say it decodes the arm,scmi-smc channel"
grep -q 'hyptrace: SCMI scmi-param: function 0x82000011, shared memory at 0x4f000100$' "$BOOT_LOG" ||
	fail "the hypervisor did not say it decodes the arm,scmi-smc-param channel"
grep -q "hyptrace: SCMI scmi-hyp: in the hypervisor's region; its calls not decoded" "$BOOT_LOG" ||
	fail "the channel whose shared memory is in the hypervisor's region was not refused"
for c in 'scmi scmi fid=0x82000010 protocol=0x14 msg=0x3 token=517 word0=7 x0=0xffffffffffffffff' \
	'scmi scmi-param fid=0x82000011 protocol=0x13 msg=0x8 token=1023 word0=2 x0=0xffffffffffffffff' \
	'scmi_wrong scmi-param fid=0x82000011 protocol=0x13 msg=0x8 token=1 word0=2 x0=0xffffffffffffffff'; do
	grep -aq "fwcall_probe: $c" "$BOOT_LOG" || fail "fwcall_probe.ko did not make its call '$c'"
done
has 'fw_scmi: CLOCK protocol=0x14 msg=0x3 token=517 status=7 ret=-1 fw_ns=[1-9][0-9]*$' \
	"the arm,scmi-smc channel's CLOCK_ATTRIBUTES"
has 'fw_scmi: PERF protocol=0x13 msg=0x8 token=1023 status=2 ret=-1 fw_ns=[1-9][0-9]*$' \
	"the arm,scmi-smc-param channel's PERF_LEVEL_GET"
[ "$(grep -c 'fw_scmi:' <<<"$rep")" = 2 ] ||
	fail "fw_scmi records other than the two messages on the decoded channels ($dir/report.txt)"

# OP-TEE: a span per call, none with an RPC on a firmware without OP-TEE
has 'fw_optee: CALL_WITH_ARG result=0xffffffffffffffff rpcs=0 intr_rpcs=0 fw_ns=[1-9][0-9]* span_ns=[1-9][0-9]* flags=0x0$' \
	"CALL_WITH_ARG's span"
has 'fw_optee: CALL_WITH_REGD_ARG result=0xffffffffffffffff rpcs=0 intr_rpcs=0 fw_ns=[1-9][0-9]* span_ns=[1-9][0-9]* flags=0x0$' \
	"CALL_WITH_REGD_ARG's span"
has 'fw_optee: RETURN_FROM_RPC result=0xffffffffffffffff rpcs=0 intr_rpcs=0 fw_ns=[1-9][0-9]* span_ns=[1-9][0-9]* flags=0x1$' \
	"a RETURN_FROM_RPC with no span open"
has 'fw_optee: CALL_WITH_ARG result=0x4 rpcs=0 intr_rpcs=0 fw_ns=0 span_ns=[0-9]+ flags=0x0$' \
	"CALL_WITH_ARG refused (its message in the hypervisor's memory)"
[ "$(grep -c 'fw_optee:' <<<"$rep")" = 4 ] || fail "fw_optee records other than the probe's four ($dir/report.txt)"

# The entropy's registers never reach the trace: not as text, not as bytes
! grep -qi '5a5a00e47c0de00' "$dir/report.txt" || fail "TRNG_RND64's x2/x3 in the report"
python3 - "$dir/fw.dat" <<'EOF' || fail "TRNG_RND64's x2/x3 in the trace.dat's bytes"
import struct, sys
data = open(sys.argv[1], 'rb').read()
sys.exit(any(struct.pack('<Q', v) in data
             for v in (0x5a5a00e47c0de002, 0x5a5a00e47c0de003)))
EOF

# WORKAROUND_1: counted on the probe's CPU, every call in a summary
want=$(grep -a -o 'fwcall_probe: workaround_1 calls=[0-9]* cpu=[0-9]*' "$BOOT_LOG" | tail -n 1)
[ -n "$want" ] || fail "fwcall_probe.ko did not say how many WORKAROUND_1 calls it made"
calls=$(sed -E 's/.*calls=([0-9]+).*/\1/' <<<"$want")
cpu=$(sed -E 's/.*cpu=([0-9]+).*/\1/' <<<"$want")
got=$(awk -v c="$cpu" '$2 == "fw_workaround:" && $3 == "WORKAROUND_1" {
		split($4, n, "="); split($5, t, "="); split($6, m, "="); split($7, s, "=")
		if ($1 + 0 != c) other++
		sum += n[2]; if (t[2] + 0 <= 0 || m[2] + 0 > t[2] + 0) bad++
		if (s[2] + 0 >= 100000000) closed++
	} END {print sum + 0, other + 0, bad + 0, closed + 0}' <<<"$rep")
read -r sum other bad closed <<<"$got"
[ "$sum" = "$calls" ] || fail "fw_workaround summaries count $sum WORKAROUND_1 calls, the probe made $calls"
[ "$other" = 0 ] || fail "$other WORKAROUND_1 summaries on a CPU other than the probe's $cpu"
[ "$bad" = 0 ] || fail "$bad WORKAROUND_1 summaries with no time, or a max above the total"
[ "$closed" -ge 1 ] || fail "no WORKAROUND_1 summary spans the 100 ms period"

# ---- hyptrace stats: firmware time per service ----
"$HT" stats "$dir/fw.dat" >"$dir/stats.txt" || fail "hyptrace stats failed"
n_psci=$(grep -c 'fw_psci:' <<<"$rep")
n_arch=$(grep -c 'fw_arch:' <<<"$rep")
n_trng=$(grep -c 'fw_trng:' <<<"$rep")
for s in "PSCI $n_psci" "ARCH $n_arch" "TRNG $n_trng" "WORKAROUND_1 $calls"; do
	grep -Eq "^  ${s% *} +${s#* } " "$dir/stats.txt" ||
		fail "hyptrace stats has no '${s% *}' row with count ${s#* } ($dir/stats.txt)"
done
for s in 'SCMI 0x13/0x08:1' 'SCMI 0x14/0x03:1' 'OPTEE:4'; do
	grep -Eq "^  ${s%:*} +${s#*:} " "$dir/stats.txt" ||
		fail "hyptrace stats has no '${s%:*}' row with count ${s#*:} ($dir/stats.txt)"
done
expect_healthy
pass "decoded at boot (CPU_ON x3, TRNG_VERSION) and in a recording read by stock trace-cmd: CPU_SUSPEND from cpuidle (standby 0x1000001, power-down 0x1010002, both refused by QEMU), CPU_OFF/CPU_ON, SYSTEM_RESET2, ARCH_FEATURES, SOC_ID, TRNG status without entropy, $calls WORKAROUND_1 calls in summaries, SCMI messages on arm,scmi-smc and -param channels (protocol, msg, token, status), OP-TEE spans (CALL_WITH_ARG, REGD_ARG, resumed, refused); stats per service"
