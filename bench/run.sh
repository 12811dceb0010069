#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# hyptrace benchmarks (make bench). See bench/README.md for what each row
# measures and how to read it.
#
# Boots the hypervisor and the guest under QEMU with -icount shift=0, where
# one guest instruction is one virtual nanosecond, runs bench/guest's
# program there, boots once more with the trace sites compiled out for the
# disabled-site baseline (and without stage 2), twice more for the streaming
# readers (virtio-serial; the network), adds the host-side figures, and
# prints one table.
# The table is also written as Markdown and CSV under build/bench/.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"

usage() {
	cat <<'EOF'
Usage: bench/run.sh [--smoke] [--iterations N] [--repeat K] [--drain-seconds S]
                    [--raw-poll-ms MS] [--boots LIST] [-- qemu-run.sh options]

  --smoke            a quick run that proves every part works (few
                     iterations, short drain trials); its figures are rough
  --iterations N     loop iterations for the write_event and null-hypercall
                     rows (default 20000)
  --repeat K         time each loop K times and keep the fastest, the run
                     least disturbed by the other CPUs (default 5)
  --drain-seconds S  virtual seconds per drain trial (default 1)
  --raw-poll-ms MS   set hyptrace.ko's raw_poll_ms (how often a waiting
                     trace_pipe_raw reader looks for pages) for the
                     hyptrace record rows; default: the module's own (10)
  --boots LIST       run only these parts, separated by commas, and give
                     only their rows (default: all of them):
                       main      rows 1, 3a-3c, 3h-3i, 4a-4j, 5b, 5d
                       nosites   3d (with main)
                       nostage2  3e-3g (with main)
                       virtio    4k-4m: hyptrace agent over virtio-serial
                       net       4n-4s: hyptrace record -N to trace-cmd
                                 listen, hyptrace agent -N to hyptrace
                                 listen -N, over QEMU's user network
                       proof     7a-7c (never with --smoke)
                       lastboot  5e: the last boot's check, two runs of
                                 two boots each (a panic, then the
                                 check; never with --smoke)
                     4k-4s show hyptrace record's 4e / 4i beside their
                     figures when main runs too. 5a, 5c, 6 and 8 always
                     run.
  -- OPTIONS         more qemu-run.sh options for every boot (the tests use
                     it to check that the benchmark fails without the
                     hypervisor: -- --no-hyp)

Results: build/bench/results.md, build/bench/results.csv, console logs in
build/bench/*.log.
EOF
}

iterations=20000
repeat=5
drain_seconds=1
drain_steps=5
raw_poll_ms=
smoke=0
ALL_BOOTS=main,nosites,nostage2,virtio,net,proof,lastboot
boots=$ALL_BOOTS
qemu_run_args=()
while [ $# -gt 0 ]; do
	case $1 in
	--smoke) smoke=1; iterations=2000; repeat=1; drain_seconds=0.2
		drain_steps=1 ;;
	--iterations) [ $# -ge 2 ] || die "--iterations needs a number"
		iterations=$2; shift ;;
	--repeat) [ $# -ge 2 ] || die "--repeat needs a number"
		repeat=$2; shift ;;
	--drain-seconds) [ $# -ge 2 ] || die "--drain-seconds needs a number"
		drain_seconds=$2; shift ;;
	--raw-poll-ms) [ $# -ge 2 ] || die "--raw-poll-ms needs a number"
		raw_poll_ms=$2; shift ;;
	--boots) [ $# -ge 2 ] || die "--boots needs a list, e.g. main,net"
		boots=$2; shift ;;
	-h|--help) usage; exit 0 ;;
	--) shift; qemu_run_args=("$@"); break ;;
	*) die "unknown option '$1' (see --help)" ;;
	esac
	shift
done
[[ $iterations =~ ^[1-9][0-9]*$ ]] || die "--iterations wants a number"
[[ $repeat =~ ^[1-9][0-9]*$ ]] || die "--repeat wants a number"
[[ -z $raw_poll_ms || $raw_poll_ms =~ ^[1-9][0-9]*$ ]] ||
	die "--raw-poll-ms wants a number of milliseconds"
for b in ${boots//,/ }; do
	[[ ,$ALL_BOOTS, == *,$b,* ]] || die "--boots: no part '$b' (see --help)"
done
[ -n "${boots//,/}" ] || die "--boots wants at least one part"
# ran PART: the part is to run (and its rows to be given)
ran() {
	[[ ,$boots, == *,$1,* ]]
}

OUT=$HYPTRACE_BUILD/bench
HYP_NOSITES=$HYPTRACE_BUILD/hyp-nosites/hyptrace.bin
HYP_NOSTAGE2=$HYPTRACE_BUILD/hyp-nostage2/hyptrace.bin
PROG=$OUT/hyptrace-bench
CPUSTATE_PROG=$OUT/cpustate-bench
MODULE=$HYPTRACE_TOP/bench/module/bench_hvc.ko
# rows 3l-3n: a decoded firmware call (bench/guest/fwcall.sh)
FW_MODULE=$HYPTRACE_TOP/bench/module/bench_fwcall.ko FW_SCRIPT=$HYPTRACE_TOP/bench/guest/fwcall.sh
ICOUNT=(-icount shift=0,sleep=off)
CPU_MODEL=cortex-a57
NR_CPUS=4
DEFAULT_KB=7
BIG_KB=1024
# The fixed rate of the recorder's CPU-time row: below both 4c and 4e, so
# that trace_pipe and the recorder would both keep up with it.
RECORD_CPU_RATE=100000
# The proof rows (7): hypercalls for the fuzzer's two rounds, scribbling time
FUZZ_BENCH_CALLS=1000000
FUZZ_BENCH_HOSTILE=100000
SCRIBBLE_BENCH_SECONDS=60
# 5e: the last boot's buffer, KiB per CPU (most of the 32 MiB carve-out),
# and null hypercalls per CPU that fill it: about 102 calls (204 events) a
# page, and a lap more, so that every page holds events
LB_KB=7800
LB_PAGES=$((LB_KB / 4))
LB_FULL_CALLS=$((LB_PAGES * 102 * 5 / 4))
# The net boot: QEMU's user network (restrict=on: the guest reaches only
# the forwards below, and they only this machine's 127.0.0.1). The guest
# is NET_GUEST; NET_HOST:PORT is a guestfwd to 127.0.0.1:PORT through
# tests/boot/tcp-relay.py, for trace-cmd listen's port and the per-CPU
# data ports it hands out from 1500 up; agent -N listens on
# NET_GUEST:NET_AGENT_PORT, a hostfwd from 127.0.0.1 here.
NET_GUEST=10.0.2.15
NET_HOST=10.0.2.100
NET_AGENT_PORT=7000
NET_DATA_PORTS=$(seq 1500 1531)
HT=$HYPTRACE_BUILD/tools/native/hyptrace
RELAY=$HYPTRACE_TOP/tests/boot/tcp-relay.py
# --smoke: the net searches start here, not at 1,000/s: each networked
# trial takes seconds of real time (see bench/README.md)
NET_SMOKE_FIRST_RATE=256000

for f in "$HYPTRACE_BUILD/hyp/hyptrace.elf" "$HYP_NOSITES" "$HYP_NOSTAGE2" "$PROG" "$CPUSTATE_PROG" \
	"$MODULE" "$OUT/carveout_use" "$HT"; do
	[ -f "$f" ] || die "$f missing: run 'make bench' (it builds it)"
done
! ran net || command -v trace-cmd >/dev/null ||
	die "trace-cmd missing (Debian's trace-cmd package): the net rows need it"

# shellcheck source=bench/lib/boots.sh
. "$HYPTRACE_TOP/bench/lib/boots.sh"
# shellcheck source=bench/lib/tabulate.sh
. "$HYPTRACE_TOP/bench/lib/tabulate.sh"
# shellcheck source=bench/lib/reference.sh
. "$HYPTRACE_TOP/bench/lib/reference.sh"

mkdir -p "$OUT"
! ran main || boot main "$(main_script)"
! ran nosites || boot nosites "$(nosites_script)" --hyp "$HYP_NOSITES"
! ran nostage2 || boot nostage2 "$(nostage2_script)" --hyp "$HYP_NOSTAGE2"
! ran virtio || boot_transport virtio
! ran net || boot_transport net
# Not with --smoke: QEMU 7.2 here now and then stops answering at the
# warm reset of these runs (main's hypervisor too), which would leave the
# smoke test waiting for --timeout (bench/README.md, row 5e)
if [ "$smoke" = 0 ] && ran lastboot; then
	lastboot_boot empty 0
	lastboot_boot full "$LB_FULL_CALLS"
fi
drain_log=main

step "host-side writer cost (callgrind, tests/ringbuf)"
make -s -C "$HYPTRACE_TOP/tests/ringbuf" bench BUILD="$HYPTRACE_BUILD/ringbuf" \
	>"$OUT/callgrind.txt" 2>&1 ||
	die "the callgrind benchmark failed: $OUT/callgrind.txt"

if ran main; then
	# 1 and 2: write_event round trips
	hv_off=$(best main loop "remote=hypervisor events=none" per_op)
	hv_st=$(best main loop "remote=hypervisor events=selftest" per_op)
	hv_all=$(best main loop "remote=hypervisor events=selftest,hyp_enter,hyp_exit" per_op)
	t_off=$(best main loop "remote=test events=none" per_op)
	t_st=$(best main loop "remote=test events=selftest" per_op)
	row 1a "write_event round trip, tracing off (instr/op)" \
		"$(pretty "$hv_off")" "$(pretty "$t_off") (write refused)" \
		"$REF_1A"
	row 1b "write_event round trip, selftest event on (instr/op)" \
		"$(pretty "$hv_st")" "$(pretty "$t_st")" "$REF_1B"
	row 1c "write_event round trip, selftest + hyp_enter + hyp_exit (instr/op)" \
		"$(pretty "$hv_all")" "–" "$REF_1C"
	ev1=$(calc "$hv_st - $hv_off")
	ev3=$(calc "($hv_all - $hv_off) / 3")
	row 1d "cost of one traced event: 1b − 1a; (1c − 1a) / 3 (instr)" \
		"$ev1; $ev3" "$(calc "$t_st - $t_off") (1b − 1a)" \
		"$REF_1D"

	# 3: the null hypercall
	hvc_off=$(best main hvc "events=none" per_call)
	hvc_on=$(best main hvc "events=hyp_enter,hyp_exit" per_call)
	row 3a "null hypercall round trip, tracing off (instr)" \
		"$(pretty "$hvc_off")" "–" ""
	row 3b "null hypercall round trip, hyp_enter + hyp_exit on (instr)" \
		"$(pretty "$hvc_on")" "–" ""
	row 3c "price of tracing one trap, two events: 3b − 3a (instr)" \
		"$(calc "$hvc_on - $hvc_off")" "–" "$REF_3C"
	# 3h-3i: what the CPU-state window costs a CPU coming online
	cs_off=$(best main cpustate "window=off" ns)
	cs_on=$(best main cpustate "window=on" ns)
	cs_traps=$(field "$(bench_lines main | grep '^cpustate_traps ' | head -n 1)" per_round)
	[ -n "$cs_off" ] && [ -n "$cs_on" ] && [ -n "$cs_traps" ] ||
		die "no cpustate result in $OUT/main.log: cpustate-bench failed there"
	row 3h "CPU 1 online (CPU_ON to online), cpu_sysreg off / on: CPU-state window compiled in, off / on (instr)" \
		"$(pretty "$cs_off") / $(pretty "$cs_on")" "–" ""
	row 3i "the window per CPU_ON: 3h on − off; its traps (cpu_sysreg events); per trap (instr)" \
		"$(pretty "$(calc "$cs_on - $cs_off")"); $cs_traps; $(calc "($cs_on - $cs_off) / $cs_traps")" "–" ""
	row 3j "MMIO read of a traced device, fast path (readl): mmio_read on; events off; untraced (instr)" \
		"$(best main mmio "events=on" readl_ns); $(best main mmio "events=off" readl_ns); $(best main mmio "events=none" readl_ns)" "–" ""
	row 3k "MMIO ldp of a traced device, decoded at EL2 (two accesses): mmio_read on; events off; untraced (instr)" \
		"$(best main mmio "events=on" ldp_ns); $(best main mmio "events=off" ldp_ns); $(best main mmio "events=none" ldp_ns)" "–" ""
	row "3k'" "MMIO SIMD load of a traced device, let through by software step: mmio_unhandled on; untraced (instr)" \
		"$(best main mmio "events=on" simd_ns); $(best main mmio "events=none" simd_ns)" "–" ""
	# 4: drain
	row 4a "drain via trace_pipe, $DEFAULT_KB KiB buffer: highest zero-loss rate (events/s per CPU)" \
		"$(drain_cell hypervisor $DEFAULT_KB rate)" \
		"$(drain_cell test $DEFAULT_KB rate)" "$REF_DRAIN_PIPE"
	row 4b "… loss above it, $DEFAULT_KB KiB (lost % at events/s)" \
		"$(drain_cell hypervisor $DEFAULT_KB loss)" \
		"$(drain_cell test $DEFAULT_KB loss)" ""
	row 4c "drain via trace_pipe, 1 MiB buffer: highest zero-loss rate (events/s per CPU)" \
		"$(drain_cell hypervisor $BIG_KB rate)" \
		"$(drain_cell test $BIG_KB rate)" "$REF_DRAIN_PIPE"
	row 4d "… loss above it, 1 MiB (lost % at events/s)" \
		"$(drain_cell hypervisor $BIG_KB loss)" \
		"$(drain_cell test $BIG_KB loss)" ""
	# 4e-4g: hyptrace record (trace_pipe_raw, splice) in 4c's place
	rec_poll=$(field "$(drain_line hypervisor $BIG_KB record)" raw_poll_ms)
	pipe_rate=$(field "$(drain_line hypervisor $BIG_KB pipe)" zero_loss_rate)
	row 4e "drain via hyptrace record (trace_pipe_raw, splice), 1 MiB buffer, raw_poll_ms=$rec_poll: highest zero-loss rate (events/s per CPU)" \
		"$(drain_cell hypervisor $BIG_KB rate record)" "–" \
		"≥ $REF_RECORD_FACTOR × 4c = $(pretty "$((REF_RECORD_FACTOR * pipe_rate))")"
	row 4f "… loss above it, hyptrace record, 1 MiB (lost % at events/s)" \
		"$(drain_cell hypervisor $BIG_KB loss record)" "–" ""
	# The run least disturbed: the smallest total, with its own drain share
	rec_cpu=$(bench_lines main | awk '$1 == "record_cpu" {
			for (i = 2; i <= NF; i++)
				if (index($i, "ms_per_mib=") == 1)
					print substr($i, 12), $0
		}' | sort -n | head -n 1 | cut -d' ' -f2-)
	[ -n "$rec_cpu" ] || die "no record_cpu result in $OUT/main.log: the guest program failed there"
	row 4g "hyptrace record CPU time, user + sys, at $(pretty "$RECORD_CPU_RATE") events/s, 1 MiB (virtual ms per MiB recorded)" \
		"$(pretty "$(field "$rec_cpu" ms_per_mib)") ($(pretty "$(field "$rec_cpu" run_ms_per_mib)") of it while draining)" \
		"–" ""

	# 4h-4j: both readers again, with the null hypercall as the writer
	hvc_pipe_rate=$(field "$(drain_line hypervisor $BIG_KB pipe hvc)" zero_loss_rate)
	hvc_rec_poll=$(field "$(drain_line hypervisor $BIG_KB record hvc)" raw_poll_ms)
	row 4h "drain via trace_pipe, 1 MiB buffer, null-hypercall writer (hyp_enter + hyp_exit): highest zero-loss rate (events/s per CPU)" \
		"$(drain_cell hypervisor $BIG_KB rate pipe hvc)" "–" ""
	row 4i "drain via hyptrace record, 1 MiB buffer, raw_poll_ms=$hvc_rec_poll, null-hypercall writer: highest zero-loss rate (events/s per CPU)" \
		"$(drain_cell hypervisor $BIG_KB rate record hvc)" "–" \
		"≥ $REF_RECORD_FACTOR × 4c = $(pretty "$((REF_RECORD_FACTOR * pipe_rate))"); $REF_RECORD_FACTOR × 4h = $(pretty "$((REF_RECORD_FACTOR * hvc_pipe_rate))")"
	row 4j "… loss above them, 1 MiB, null-hypercall writer: trace_pipe (4h); hyptrace record (4i) (lost % at events/s)" \
		"$(drain_cell hypervisor $BIG_KB loss pipe hvc); $(drain_cell hypervisor $BIG_KB loss record hvc)" \
		"–" ""
fi
if ran main && ran nosites; then
	hvc_bare=$(best nosites hvc "events=none" per_call)
	row 3d "one disabled trace site: (3a − same call, sites compiled out) / 2 (instr)" \
		"$(calc "($hvc_off - $hvc_bare) / 2")" "–" "$REF_3D"
	fw() { grep -a "^@fwcall $2 " "$OUT/$1.log" | tail -n 1 | cut -d' ' -f3 | tr -d '\r'; }
	row 3l "decoded firmware call (bench/guest/fwcall.sh: ARCH_FEATURES by HVC, answered in EL2): fw_arch off / on (instr)" \
		"$(fw main off) / $(fw main fw_arch)" "–" ""
	row 3m "price of one decoded call's event: 3l on − off (instr), beside 3c" \
		"$(calc "$(fw main fw_arch) - $(fw main off)")" "–" ""
	row 3n "3l's call compiled in but off: 3l off − same call, sites compiled out (instr; its two hyp_enter/hyp_exit sites included)" \
		"$(calc "$(fw main off) - $(fw nosites off)")" "–" ""
fi
if ran main && ran nostage2; then
	# 3e-3g: what stage 2 costs (the same loops, hypervisor built without it)
	s2_hvc_off=$(best nostage2 hvc "events=none" per_call)
	s2_hvc_on=$(best nostage2 hvc "events=hyp_enter,hyp_exit" per_call)
	s2_off=$(best nostage2 loop "remote=hypervisor events=none" per_op)
	s2_st=$(best nostage2 loop "remote=hypervisor events=selftest" per_op)
	row 3e "null hypercall, tracing off / hyp_enter + hyp_exit on: stage 2 on (3a / 3b); off (instr)" \
		"$(pretty "$hvc_off") / $(pretty "$hvc_on"); $(pretty "$s2_hvc_off") / $(pretty "$s2_hvc_on")" "–" ""
	row 3f "traced event (write_event: 1b − 1a): stage 2 on; off (instr)" \
		"$ev1; $(calc "$s2_st - $s2_off")" "–" ""
	s2_boot=$(grep -a -o '[0-9]* ns after hypervisor entry' "$OUT/nostage2.log" |
		head -n 1 | cut -d' ' -f1)
	[ -n "$s2_boot" ] || die "no boot time line in $OUT/nostage2.log"
	row 3g "instructions from hypervisor entry to Linux entry: stage 2 on (5d); off" \
		"$(pretty "$(grep -a -o '[0-9]* ns after hypervisor entry' "$OUT/main.log" | head -n 1 | cut -d' ' -f1)"); $(pretty "$s2_boot")" "–" ""
fi
# 4k-4s: the streaming readers, from boots of their own
! ran virtio || stream_rows virtio agent virtio "4k 4l 4m" \
	"hyptrace agent over virtio-serial (trace_pipe_raw spliced into the port, threads pinned to their CPUs; hyptrace listen on the workstation)" \
	"hyptrace agent"
if ran net; then
	stream_rows net record net "4n 4o 4p" \
		"hyptrace record -N over the network (QEMU user networking, a relay to 127.0.0.1 per connection) to trace-cmd listen on the workstation" \
		"hyptrace record -N"
	stream_rows net agent net "4q 4r 4s" \
		"hyptrace agent -N over the network (QEMU user networking, hostfwd from 127.0.0.1; every CPU's pages on one connection) to hyptrace listen -N on the workstation" \
		"hyptrace agent -N"
fi

# 5: footprint
read -r text data bss < <(size -A "$HYPTRACE_BUILD/hyp/hyptrace.elf" | awk '
	$1 ~ /^\.(text|rodata|head\.text)/ { t += $2 }
	$1 ~ /^\.(data|rela|got)/ { d += $2 }
	$1 ~ /^\.bss/ { b += $2 }
	END { print t, d, b }')
hyp_end=$(nm "$HYPTRACE_BUILD/hyp/hyptrace.elf" | awk '$3 == "__hyp_end" { print $1 }')
row 5a "hypervisor image: text / data / bss (bytes); laid out, page-aligned (KiB)" \
	"$(pretty "$text") / $(pretty "$data") / $(pretty "$bss"); $((16#$hyp_end / 1024))" "–" "$REF_5A"
use_small=$("$OUT/carveout_use" "$NR_CPUS" "$DEFAULT_KB")
use_big=$("$OUT/carveout_use" "$NR_CPUS" "$BIG_KB")
row 5c "carve-out used per CPU at $DEFAULT_KB KiB / 1 MiB buffer_size_kb (KiB)" \
	"$(($(field "$use_small" per_cpu_bytes) / 1024)) / $(($(field "$use_big" per_cpu_bytes) / 1024))" \
	"–" ""
if ran main; then
	resmem=$(bench_lines main | awk '$1 == "resmem" {
		split($3, r, "="); h = r[2]
		size = 0
		for (i = 17; i <= 32; i += 2) size = size * 256 + \
			index("0123456789abcdef", substr(h, i, 1)) * 16 - 16 + \
			index("0123456789abcdef", substr(h, i + 1, 1)) - 1
		sub(/^name=/, "", $2); sub(/@.*/, "", $2)
		printf "%s%s %d MiB", sep, $2, size / 1048576; sep = ", " }')
	[ -n "$resmem" ] || die "no reserved-memory regions in $OUT/main.log"
	row 5b "memory reserved from Linux (device tree /reserved-memory)" \
		"$resmem" "–" ""
	boot_ns=$(grep -a -o '[0-9]* ns after hypervisor entry' "$OUT/main.log" |
		head -n 1 | cut -d' ' -f1)
	[ -n "$boot_ns" ] || die "no boot time line from the hypervisor in $OUT/main.log"
	row 5d "instructions from hypervisor entry to Linux entry (±16: counter tick)" \
		"$(pretty "$boot_ns")" "–" "$REF_5D"
fi

# 5e: what the last boot's check adds to 5d, nearly empty against full
if [ "$smoke" = 0 ] && ran lastboot; then
	lb_empty=$(lastboot_figures empty)
	lb_full=$(lastboot_figures full)
	row 5e "last boot check at $(pretty "$LB_KB") KiB per CPU, nearly empty; full: instructions it adds to 5d (pages kept, events)" \
		"$lb_empty; $lb_full" "–" ""
fi

# 6: host callgrind
row 6 "host writer, callgrind: reserve+fill+commit 8 B / 16 B payload (instr/event)" \
	"$(cg 'rb_reserve+fill+rb_commit, 8 B') / $(cg 'rb_reserve+fill+rb_commit, 16 B')" \
	"–" "$REF_6"

# 8: the host tools on a generated trace, trace-cmd report beside them, in
# this run (bench/host/tools.sh); --smoke: 800,000 events, not 16 M
tools_pairs=2000000
[ "$smoke" = 0 ] || tools_pairs=100000
step "hyptrace report, stats, perfetto and trace-cmd report on $(pretty $((tools_pairs * 8))) generated events (bench/host/tools.sh)"
bash "$HYPTRACE_TOP/bench/host/tools.sh" --pairs "$tools_pairs" "$HT" "$OUT/tools" \
	>"$OUT/tools.txt" 2>"$OUT/tools.err" ||
	die "the tools benchmark failed: $(tail -n 1 "$OUT/tools.err")"
read -r _ tool_events _ tool_bytes < <(grep '^events ' "$OUT/tools.txt")
tool_what="$(pretty "$tool_events") generated events, a $((tool_bytes / 1000000)) MB trace.dat of 4 CPUs (wall s, user + sys s, peak resident MB)"
row 8a "hyptrace report of $tool_what" "$(tool_cell report)" "–" \
	"trace-cmd report, same file: $(tool_cell trace-cmd-report)"
row 8b "hyptrace stats of the same" "$(tool_cell stats)" "–" \
	"$REF_8B"
row 8c "hyptrace perfetto of the same, to /dev/null" "$(tool_cell perfetto)" "–" ""

# 7: the proof runs, long (tests/boot/57-fuzz.sh, 58-scribble.sh at full
# speed, not under -icount: they count calls and writes, not time). A smoke
# run leaves them out: make test runs both, short.
if [ "$smoke" = 0 ] && ran proof; then
	step "hypercall fuzzer, $FUZZ_BENCH_CALLS calls (tests/boot/57-fuzz.sh)"
	HYPTRACE_TEST_LOGS=$OUT FUZZ_CALLS=$FUZZ_BENCH_CALLS \
		FUZZ_HOSTILE_CALLS=$FUZZ_BENCH_HOSTILE BOOT_TIMEOUT=3000 \
		bash "$HYPTRACE_TOP/tests/boot/57-fuzz.sh" >"$OUT/fuzz.txt" 2>&1 ||
		die "the fuzz run failed: $(tail -n 1 "$OUT/fuzz.txt")"
	step "scribbler, $SCRIBBLE_BENCH_SECONDS s (tests/boot/58-scribble.sh)"
	HYPTRACE_TEST_LOGS=$OUT SCRIBBLE_SECONDS=$SCRIBBLE_BENCH_SECONDS \
		BOOT_TIMEOUT=3000 \
		bash "$HYPTRACE_TOP/tests/boot/58-scribble.sh" >"$OUT/scribble.txt" 2>&1 ||
		die "the scribble run failed: $(tail -n 1 "$OUT/scribble.txt")"
	fuzz0=$(proof_cell "$OUT/57-fuzz-smp4.log" 0) ||
		die "no fuzz result in $OUT/57-fuzz-smp4.log"
	fuzz1=$(proof_cell "$OUT/57-fuzz-smp4.log" 1) ||
		die "no hostile fuzz result in $OUT/57-fuzz-smp4.log"
	# a kernel message may run into the line's end: "[ 12.3] ..."
	# round a, everything scribbled on (round b leaves the data pages)
	scr=$(grep -a -o 'carveout_scribble: result .* targets=7 .*' "$OUT/58-scribble-smp4.log" |
		tail -n 1 | sed 's/\r$//; s/\[ *[0-9.]*\].*//')
	[ -n "$scr" ] || die "no scribble result in $OUT/58-scribble-smp4.log"
	row 7a "hypercall fuzzer, $(pretty "$FUZZ_BENCH_CALLS") random calls from 4 CPUs while tracing, hyptrace.ko's buffer left alone: answers per status code" \
		"$fuzz0" "–" "$REF_7A"
	row 7b "… $(pretty "$FUZZ_BENCH_HOSTILE") calls with nothing held back (UNLOAD, RESET, ENABLE 0 ...)" \
		"$fuzz1" "–" "$REF_7B"
	row 7c "scribbler: random 8-byte writes into the descriptor / meta / data pages from 4 CPUs while tracing, in $(field "$scr" seconds) s" \
		"$(pretty "$(field "$scr" writes)") ($(pretty "$(field "$scr" desc_writes)") / $(pretty "$(field "$scr" meta_writes)") / $(pretty "$(field "$scr" data_writes)")) over $(field "$scr" pages) pages; $(pretty "$(field "$scr" events)") events meanwhile; $(pretty "$(field "$scr" guard_bytes)") guard bytes $(field "$scr" guard), image sum $(field "$scr" sum), canary $(field "$scr" canary), $(field "$scr" cpus_alive) CPUs answering" \
		"–" "$REF_7C"
fi

write_tables
