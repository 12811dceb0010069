#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# MMIO tracing of a device named at boot (hyptrace.mmio=compat=arm,pl031:rw)
# on QEMU virt:
# - the hypervisor says it traces the PL031's page;
# - mmio_probe.ko op=seq makes a known readl/readb/readw/writel sequence
#   on the RTC with interrupts off, between two selftest markers: the
#   trace of that CPU between them holds exactly those accesses, in order,
#   with their widths, addresses and the values the module saw, and the
#   device behaved as without tracing (ID registers as the PL031 has them,
#   the match register reads back what was written, the time is a time);
# - op=ldp: accesses without a syndrome, decoded by the hypervisor: between
#   two markers, that CPU's trace holds an ldp as two mmio_reads (in
#   address order, flagged decoded and pair), a post-indexed ldr, a
#   pre-indexed ldrsb (sign-extended), a pre-indexed stp of CR and
#   IMSC as two mmio_writes of the values they held, a post-indexed ldp
#   based on SP, and the module saw the values, the sign extension and the
#   bases (SP too) written back; a SIMD
#   load, which is not decoded, is reported as mmio_unhandled and still
#   performed once;
# - hyptrace record of the same sequence, written by hyptrace report
#   --mmiotrace as Linux's mmiotrace writes (VERSION 20070824, a MAP line,
#   R and W lines with width, map id, address, value and PC), and counted
#   per device and register by hyptrace stats, read by stock trace-cmd
#   report from the format files and carried into Perfetto;
# - op=call: HYPTRACE_CALL_MMIO_REGION refuses RAM and the hypervisor's
#   memory (DENIED), an already traced page (BUSY), and a zero size, a
#   wrapping range, a bad mode, a bad operation and removing what is not
#   there (INVALID).
# Against the code before MMIO tracing, the hypervisor ignores the option,
# the PL031 is never traced and mmio_probe's hypercalls answer
# NOT_SUPPORTED: every check below fails. Against the code before the
# decoding (every access without a syndrome let through), the op=ldp
# sequence holds no mmio_read or mmio_write but 5 mmio_unhandled.
# shellcheck source=tests/boot/lib.sh
. "$(dirname "$0")/lib.sh"

# The guest side: guest/93-mmio-trace.sh
boot mmio --smp 2 --append 'hyptrace.mmio=compat=arm,pl031:rw' \
	--add "$(trace_on_file 64 mmio_read mmio_write mmio_unhandled selftest)" \
	--add "$GUEST_DIR/93-mmio-trace.sh" --cmd "sh /root/93-mmio-trace.sh"
expect_ok
[ "$(value alive)" = 42 ] || fail "the guest ran no command after the probes"
expect_line '^hyptrace: MMIO trace: 0x9010000\.\.0x9010fff \(rw\)' \
	"the hypervisor's line for the traced PL031"

# What the module saw: the PL031 as it is without tracing
for kv in id0=0x31 id1=0x10 cell0=0xd mr_back=0x12345678 ldp0=0x31 \
	ldp1=0x10 post=0x31 post_next=ok sb=0xffffffffffffffb1 sb_base=ok stp_base=ok \
	sp0=0x31 sp1=0x10 sp_base=ok simd=0x31; do
	[ "$(value "${kv%%=*}")" = "${kv#*=}" ] ||
		fail "mmio_probe read ${kv%%=*}=$(value "${kv%%=*}"), want ${kv#*=}"
done
# The first run's (the recorded second run prints them again)
first() { grep -a -o "@$1=[^ ]*" "$BOOT_LOG" | head -n 1 | cut -d= -f2; }
dr=$(first dr)
[ $((dr)) -gt 1600000000 ] || fail "the RTC's time reads $dr: not a time"
mr=$(first mr)
cpu=$(printf '%03d' "$(first cpu)")

# between CPU FROM TO: CPU's events from selftest id=FROM to id=TO, each
# without its CPU, time, pc and va, joined by '|'
between() {
	grep "^\[$1\]" <<<"$trace" |
		sed -n "/selftest id=$2\$/,/selftest id=$3\$/p" |
		sed -E 's/^\[[0-9]+\][[:space:]]+[0-9.]+: //; s/ pc=0x[0-9a-f]+ va=0x[0-9a-f]+//' |
		tr '\n' '|'
}

# The trace of that CPU between the markers: exactly the sequence
trace=$(grep -a '^@T ' "$BOOT_LOG" | sed 's/^@T //; s/\r$//')
got=$(between "$cpu" 7171329 7171330)
want="selftest id=7171329|"
want+="mmio_read addr=0x9010fe0 width=4 value=0x31 flags=0x0|"
want+="mmio_read addr=0x9010fe4 width=1 value=0x10 flags=0x0|"
want+="mmio_read addr=0x9010ff0 width=2 value=0xd flags=0x0|"
want+="mmio_read addr=0x9010004 width=4 value=$mr flags=0x0|"
want+="mmio_write addr=0x9010004 width=4 value=0x12345678 flags=0x0|"
want+="mmio_read addr=0x9010004 width=4 value=0x12345678 flags=0x0|"
want+="mmio_write addr=0x9010004 width=4 value=$mr flags=0x0|"
want+="mmio_read addr=0x9010000 width=4 value=$dr flags=0x0|"
want+="selftest id=7171330|"
[ "$got" = "$want" ] ||
	fail "CPU $cpu's trace between the markers is '$got', want '$want'"
# The PC is the module's, the VA its ioremap()
grep -Eq "mmio_read addr=0x9010fe0 width=4 value=0x31 pc=0xffff[0-9a-f]+ va=0xffff[0-9a-f]+fe0 " <<<"$trace" ||
	fail "no mmio_read with a kernel pc and the ioremap()ed va"

# No syndrome: decoded, each element performed once and recorded in
# address order (flags 0x4 decoded, 0x10 pair, 0x2 signed)
cpu=$(printf '%03d' "$(value ldp_cpu)")
got=$(between "$cpu" 7171331 7171332)
want="selftest id=7171331|"
want+="mmio_read addr=0x9010fe0 width=4 value=0x31 flags=0x14|"
want+="mmio_read addr=0x9010fe4 width=4 value=0x10 flags=0x14|"
want+="mmio_read addr=0x9010fe0 width=4 value=0x31 flags=0x4|"
want+="mmio_read addr=0x9010ffc width=1 value=0xb1 flags=0x6|"
want+="mmio_write addr=0x901000c width=4 value=$(value cr) flags=0x14|"
want+="mmio_write addr=0x9010010 width=4 value=$(value imsc) flags=0x14|"
want+="mmio_read addr=0x9010fe0 width=4 value=0x31 flags=0x14|"
want+="mmio_read addr=0x9010fe4 width=4 value=0x10 flags=0x14|"
want+="selftest id=7171332|"
[ "$got" = "$want" ] ||
	fail "CPU $cpu's trace of the accesses without a syndrome is '$got', want '$want'"
# The first pair's halves: one instruction, the second element 4 bytes on
pair=$(grep -E -o 'mmio_read addr=0x9010fe[04] width=4 value=0x[0-9a-f]+ pc=0x[0-9a-f]+ va=0x[0-9a-f]+ flags=0x14' <<<"$trace" | head -n 2 |
	sed -E 's/.* pc=(0x[0-9a-f]+) va=(0x[0-9a-f]+) .*/\1 \2/' | tr '\n' ' ')
read -r pc1 va1 pc2 va2 <<<"$pair"
[ -n "$va2" ] && [ "$pc1" = "$pc2" ] && [ $((va2 - va1)) = 4 ] ||
	fail "the ldp's two mmio_reads do not share a pc with vas 4 apart: '$pair'"
# Not decoded (SIMD&FP): reported, performed once (the value above)
n=$(grep -c "mmio_unhandled addr=0x9010fe0 " <<<"$trace")
[ "$n" = 1 ] || fail "$n mmio_unhandled events at 0x9010fe0, want 1 (the SIMD load)"
[ "$(grep -c "mmio_unhandled" <<<"$trace")" = 1 ] ||
	fail "mmio_unhandled events other than the SIMD load's: $(grep mmio_unhandled <<<"$trace" | tr '\n' '|')"

# The hypercall's refusals
for kv in ram=-10 hyp=-10 traced=-5 zero_size=-3 wrap=-3 bad_mode=-3 \
	bad_op=-3 remove_none=-3; do
	[ "$(value "${kv%%=*}")" = "${kv#*=}" ] ||
		fail "MMIO_REGION for ${kv%%=*} answered $(value "${kv%%=*}"), want ${kv#*=}"
done

# hyptrace report --mmiotrace: Linux's mmiotrace text of a recording
[ "$(value rec_rc)" = 0 ] || fail "hyptrace record exited $(value rec_rc)"
DAT=$TEST_LOGS/$TEST_NAME-mmio.dat
guest_file mmio.dat "$DAT"
HT=$HYPTRACE_BUILD/tools/native/hyptrace
"$HT" report --mmiotrace "$DAT" >"$DAT.mmiotrace" 2>"$DAT.err" ||
	fail "hyptrace report --mmiotrace failed: $(head -n 1 "$DAT.err")"
got=$(sed -E 's/^([RW] [0-9]+) [0-9]+\.[0-9]{6} /\1 T /; s/^MAP [0-9]+\.[0-9]{6} /MAP T /; s/ 0xffff[0-9a-f]+ 0$/ PC 0/' "$DAT.mmiotrace" |
	sed -E 's/^(MAP T 1 0x9010000) 0xffff[0-9a-f]+000 /\1 VA /' | tr '\n' ';')
want="VERSION 20070824;MAP T 1 0x9010000 VA 0x1000 0x0 0;"
want+="R 4 T 1 0x9010fe0 0x31 PC 0;R 1 T 1 0x9010fe4 0x10 PC 0;"
want+="R 2 T 1 0x9010ff0 0xd PC 0;R 4 T 1 0x9010004 $mr PC 0;"
want+="W 4 T 1 0x9010004 0x12345678 PC 0;R 4 T 1 0x9010004 0x12345678 PC 0;"
want+="W 4 T 1 0x9010004 $mr PC 0;R 4 T 1 0x9010000 0x[0-9a-f]+ PC 0;"
grep -Eqx "$want" <<<"$got" ||
	fail "hyptrace report --mmiotrace wrote '$got', want '$want' (see $DAT.mmiotrace)"

# hyptrace stats: the device's row and the match register's
"$HT" stats "$DAT" >"$DAT.stats" 2>"$DAT.err" ||
	fail "hyptrace stats failed: $(head -n 1 "$DAT.err")"
grep -Eq '^  0x9010000 +6 +2 +0 +75\.0  1,2,4$' "$DAT.stats" ||
	fail "hyptrace stats: no PL031 row of 6 reads, 2 writes, 75 % reads, widths 1,2,4 (see $DAT.stats)"
grep -Eq '^    \+0x4 +2 +2 +0 +50\.0  4$' "$DAT.stats" ||
	fail "hyptrace stats: no match-register row of 2 reads, 2 writes (see $DAT.stats)"

# Stock trace-cmd reads the new events from their format files, and
# hyptrace perfetto carries them as ftrace events with their fields
"$TC_REPORT" -i "$DAT" >"$DAT.txt" 2>"$DAT.err" ||
	fail "trace-cmd report of the recording failed: $(head -n 2 "$DAT.err")"
grep -Eq 'mmio_write: +addr=0x9010004 width=4 value=0x12345678 pc=0xffff[0-9a-f]+ va=0xffff[0-9a-f]+ flags=0x0' "$DAT.txt" ||
	fail "trace-cmd report shows no mmio_write of 0x12345678 (see $DAT.txt)"
"$HT" perfetto -o "$DAT.pftrace" "$DAT" >/dev/null 2>"$DAT.err" ||
	fail "hyptrace perfetto failed: $(head -n 1 "$DAT.err")"
[ "$(grep -a -c mmio_read "$DAT.pftrace")" -ge 1 ] ||
	fail "no mmio_read event in the Perfetto trace"

expect_healthy
first_pass="PL031 traced from boot: a readl/readb/readw/writel sequence exactly as performed (values, widths, order), the device unchanged; ldp, post-indexed ldr, pre-indexed ldrsb and stp, SP-based post-indexed ldp decoded (values, bases, one event per element in address order); a SIMD load let through once as mmio_unhandled; hyptrace report --mmiotrace of a recording as Linux writes it; RAM, the hypervisor's memory, a traced page and bad arguments refused"

# Run time, through the mmio file: the PL061 GPIO added, read, listed
# with its hits and removed; RAM refused with EPERM; and the console's
# PL011 traced (writes) while a line is printed: the line reaches the
# console once and whole, and the data-register writes in the trace spell
# it, character by character.
LINE=@uart=ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcdefghijklmnopqrstuvwxyz_0123456789
# The guest side: guest/93-mmio-runtime.sh
boot runtime --smp 2 --add "$(trace_on_file 64 mmio_read mmio_write)" \
	--add "$GUEST_DIR/93-mmio-runtime.sh" --cmd "sh /root/93-mmio-runtime.sh $LINE"
expect_ok
[ "$(value alive)" = 42 ] || fail "runtime: the guest ran no command after the probes"
[ "$(value add_gpio)" = 0 ] || fail "adding the PL061 through mmio exited $(value add_gpio)"
[ "$(value del_gpio)" = 0 ] || fail "removing the PL061 exited $(value del_gpio)"
[ "$(grep -a -o '@add_again=[0-9]* [0-9]*' "$BOOT_LOG" | cut -d= -f2)" = "1 1" ] ||
	fail "adding the PL061 twice: want a failure with EBUSY"
[ "$(grep -a -o '@add_ram=[0-9]* [0-9]*' "$BOOT_LOG" | cut -d= -f2)" = "1 1" ] ||
	fail "adding RAM: want a failure with EPERM"
grep -a -q '^@M 0x9030000+0x1000:r hits=1' "$BOOT_LOG" ||
	fail "mmio does not list the PL061 with 1 hit: $(grep -a '^@M' "$BOOT_LOG")"
[ "$(value regions)" = 0 ] || fail "$(value regions) regions left after removing them"
trace=$(grep -a '^@T ' "$BOOT_LOG" | sed 's/^@T //; s/\r$//')
n=$(grep -c 'mmio_read addr=0x9030fe0 width=4 value=0x61 ' <<<"$trace")
[ "$n" = 1 ] || fail "$n mmio_read of the PL061's ID at 0x9030fe0, want 1 (the second read came after the removal)"
n=$(count_lines "^$LINE\r?\$")
[ "$n" = 1 ] || fail "the line printed with the PL011 traced reached the console $n times whole, want 1; the console lines holding a part of it: $(grep -a -n 'uart=\|RSTUVW\|klmnop' "$BOOT_LOG" | grep -v 'echo ' | tr -d '\r' | tr '\n' '|')"
spelt=$(grep -o 'mmio_write addr=0x9000000 width=[0-9] value=0x[0-9a-f]*' <<<"$trace" |
	sed 's/.*value=0x//' | while read -r h; do printf "\\x$h"; done)
[[ $(printf '%b' "$spelt") == *"$LINE"* ]] ||
	fail "the PL011 data-register writes in the trace do not spell the printed line: '$(printf '%b' "$spelt" | tr -d '\r' | tr '\n' '|')'"
expect_healthy
pass "$first_pass; at run time the PL061 added, read, listed with its hit and removed through the mmio file, RAM refused (EPERM), a traced page again refused (EBUSY); the PL011 traced while the console printed: the line once and whole, spelt by the traced writes"
