# shellcheck shell=bash
# shellcheck disable=SC2154 # the globals of bench/run.sh, which sources this
# SPDX-License-Identifier: GPL-2.0
#
# The boots of bench/run.sh: the guest side of each boot (the commands
# run in the guest, whose @bench lines carry the figures) and the boots
# themselves under -icount, with this machine's end of the streaming
# boots. Sourced by bench/run.sh, whose globals it reads (OUT, the
# option values, the constants).

# boot NAME SCRIPT [qemu-run.sh options]: one scripted boot under -icount,
# console kept in $OUT/NAME.log; QEMU gets the arguments in boot_qemu too.
boot_qemu=()
boot() {
	local name=$1 script=$2
	shift 2
	step "boot $name"
	"$HYPTRACE_TOP/qemu-run.sh" --no-build --quiet --timeout 3000 \
		--cpu "$CPU_MODEL" --smp "$NR_CPUS" \
		--log "$OUT/$name.log" --add "$PROG:/root/hyptrace-bench" \
		--add "$CPUSTATE_PROG:/root/cpustate-bench" \
		--add "$MODULE:/root/bench_hvc.ko" \
		--add "$HYPTRACE_TOP/bench/module/bench_mmio.ko:/root/bench_mmio.ko" \
		--add "$HYPTRACE_TOP/bench/guest/mmio_bench.sh:/root/mmio_bench.sh" \
		--add "$FW_MODULE:/root/bench_fwcall.ko" --add "$FW_SCRIPT:/root/fwcall.sh" \
		"${qemu_run_args[@]+"${qemu_run_args[@]}"}" "$@" --cmd "$script" \
		-- "${ICOUNT[@]}" "${boot_qemu[@]+"${boot_qemu[@]}"}" ||
		die "the $name boot failed (exit $?); console in $OUT/$name.log"
}

# The guest side of the main boot. Everything is timed inside the guest;
# the @bench lines carry the figures.
main_script() {
	local ev kb i

	echo 'set -e'
	echo 'insmod /lib/modules/hyptrace/remote_test.ko'
	echo 'insmod /root/bench_hvc.ko'
	echo 'echo "@bench info kernel=$(uname -r)"'
	echo 'for n in /sys/firmware/devicetree/base/reserved-memory/*/; do'
	echo '	echo "@bench resmem name=$(basename $n) reg=$(od -An -tx1 -v $n/reg | tr -d " \n")"'
	echo 'done'
	for i in $(seq "$repeat"); do
		for ev in none selftest selftest,hyp_enter,hyp_exit; do
			echo "./hyptrace-bench loop --remote hypervisor --events $ev --iterations $iterations"
		done
		for ev in none selftest; do
			echo "./hyptrace-bench loop --remote test --events $ev --iterations $iterations"
		done
		for ev in none hyp_enter,hyp_exit; do
			echo "./hyptrace-bench hvc --events $ev --calls $iterations"
		done
	done
	# 3h-3i: traced MMIO accesses (bench/guest/mmio_bench.sh)
	for i in $(seq "$repeat"); do
		echo "sh /root/mmio_bench.sh /root/bench_mmio.ko $iterations"
	done
	for kb in $DEFAULT_KB $BIG_KB; do
		for remote in hypervisor test; do
			echo "./hyptrace-bench drain --remote $remote --buffer-kb $kb --seconds $drain_seconds --steps $drain_steps"
		done
	done
	# the same with bench_hvc's null hypercall as the (cheap) writer
	echo "./hyptrace-bench drain --remote hypervisor --writer hvc --buffer-kb $BIG_KB --seconds $drain_seconds --steps $drain_steps"
	# hyptrace record (/usr/bin/hyptrace, static) in place of trace_pipe
	[ -z "$raw_poll_ms" ] ||
		echo "echo $raw_poll_ms > /sys/module/hyptrace/parameters/raw_poll_ms"
	echo "./hyptrace-bench drain --remote hypervisor --reader record --buffer-kb $BIG_KB --seconds $drain_seconds --steps $drain_steps"
	echo "./hyptrace-bench drain --remote hypervisor --reader record --writer hvc --buffer-kb $BIG_KB --seconds $drain_seconds --steps $drain_steps"
	for i in $(seq "$repeat"); do
		echo "./hyptrace-bench record-cpu --buffer-kb $BIG_KB --seconds $drain_seconds --rate $RECORD_CPU_RATE"
	done
	# 3h-3i: CPU 1 off and on, the CPU-state window off, then on
	echo "./cpustate-bench \"\$(hyptrace-dir)\" 1 $((4 * repeat))"
	echo "sh /root/fwcall.sh $iterations $repeat"
}

# The guest side of a streaming boot (virtio or net): a drain search per
# reader and writer. virtio: hyptrace agent --start over virtio-serial
# (qemu-run.sh --virtio-trace). net: hyptrace record -N to trace-cmd
# listen, then hyptrace agent -N for hyptrace listen -N clients.
transport_script() {
	local readers=() r w first=

	echo 'set -e'
	echo 'insmod /root/bench_hvc.ko'
	[ -z "$raw_poll_ms" ] ||
		echo "echo $raw_poll_ms > /sys/module/hyptrace/parameters/raw_poll_ms"
	case $1 in
	virtio)
		readers=(agent) ;;
	net)
		echo 'ifconfig lo 127.0.0.1 up'
		echo "ifconfig eth0 $NET_GUEST netmask 255.255.255.0 up"
		readers=("record --net $NET_HOST:$tc_port"
			 "agent --net $NET_GUEST:$NET_AGENT_PORT --key /root/agent.key")
		[ "$smoke" = 0 ] || first=" --first-rate $NET_SMOKE_FIRST_RATE" ;;
	esac
	for r in "${readers[@]}"; do
		for w in event hvc; do
			echo "./hyptrace-bench drain --remote hypervisor --reader $r --writer $w --buffer-kb $BIG_KB --seconds $drain_seconds --steps $drain_steps$first"
		done
	done
}

# net_clients BOOTPID: while that boot runs, one hyptrace listen -N client
# after the other for agent -N's trials. Each connects through the
# hostfwd, starts the round (--start; its stdin, a FIFO we hold open,
# never ends) and, when the bench's SIGTERM ends the agent, writes
# net-agent.dat and exits 0; with no agent behind the forward it fails at
# once, and the next try comes 0.2 s later. Each success's output goes to
# net-listen.log, the last failure's to net-listen.try.
net_clients() {
	local fifo=$OUT/net-hold

	rm -f "$fifo" && mkfifo "$fifo"
	exec 3<>"$fifo"
	: >"$OUT/net-listen.log"
	while kill -0 "$1" 2>/dev/null; do
		if "$HT" listen -N "127.0.0.1:$agent_port" --key "$OUT/agent.key" --start \
			-o "$OUT/net-agent.dat" <&3 >"$OUT/net-listen.try" 2>&1; then
			cat "$OUT/net-listen.try" >>"$OUT/net-listen.log"
		else
			sleep 0.2
		fi
	done
	exec 3>&-
	rm -f "$fifo"
}

# boot_transport virtio|net: that boot, with this machine's end running
# meanwhile. virtio: hyptrace listen --virtio on the boot's sockets, the
# whole boot long. net: trace-cmd listen (Debian's) for record -N, and
# net_clients for agent -N.
boot_transport() {
	local t=$1 vt=$OUT/vt bpid lpid i rc=0 netdev p

	case $t in
	virtio)
		rm -rf "$vt"
		( boot virtio "$(transport_script virtio)" --virtio-trace "$vt" ) &
		bpid=$!
		for ((i = 0; i < 600; i++)); do
			[ -S "$vt/agent-ctl-path" ] && break
			kill -0 "$bpid" 2>/dev/null || break
			sleep 0.1
		done
		[ -S "$vt/agent-ctl-path" ] || { wait "$bpid" || true; die "the virtio boot made no sockets in $vt"; }
		"$HT" listen --virtio "$vt" -o "$OUT/virtio.dat" </dev/null \
			>"$OUT/virtio-listen.log" 2>&1 &
		lpid=$! ;;
	net)
		tc_port=$(free_port)
		agent_port=$(free_port)
		rm -rf "$OUT/net-tc" && mkdir -p "$OUT/net-tc"
		setsid trace-cmd listen -p "$tc_port" -d "$OUT/net-tc" -o net \
			>"$OUT/net-tc.log" 2>&1 &
		tcpid=$!
		# shellcheck disable=SC2064 # this listener's group, now
		trap "kill -TERM -- -$tcpid 2>/dev/null || true" EXIT
		for ((i = 0; i < 50; i++)); do
			ss -Hltn "sport = :$tc_port" | grep -q . && break
			sleep 0.1
		done
		ss -Hltn "sport = :$tc_port" | grep -q . ||
			{ kill -TERM -- "-$tcpid" 2>/dev/null || true; die "trace-cmd listen did not start: $(tail -n 2 "$OUT/net-tc.log")"; }
		# agent -N's key (hyptrace keygen), for the guest and the clients
		rm -f "$OUT/agent.key"
		"$HT" keygen "$OUT/agent.key" >/dev/null ||
			{ kill -TERM -- "-$tcpid" 2>/dev/null || true; die "hyptrace keygen $OUT/agent.key failed"; }
		netdev="user,id=n0,restrict=on,net=10.0.2.0/24"
		netdev+=",hostfwd=tcp:127.0.0.1:$agent_port-$NET_GUEST:$NET_AGENT_PORT"
		for p in $tc_port $NET_DATA_PORTS; do
			netdev+=",guestfwd=tcp:$NET_HOST:$p-cmd:python3 $RELAY $p"
		done
		# shellcheck disable=SC2054 # QEMU's commas
		( boot_qemu=(-netdev "$netdev" -device virtio-net-device,netdev=n0)
		  boot net "$(transport_script net)" \
			--add "$OUT/agent.key:/root/agent.key" ) &
		bpid=$!
		net_clients "$bpid" &
		lpid=$! ;;
	esac
	wait "$bpid" || rc=$?
	# QEMU gone: the listeners write what they got and end by themselves
	for ((i = 0; i < 300; i++)); do
		kill -0 "$lpid" 2>/dev/null || break
		sleep 0.1
	done
	kill "$lpid" 2>/dev/null || true
	case $t in
	virtio)
		wait "$lpid" || note "hyptrace listen: $(tail -n 1 "$OUT/virtio-listen.log")" ;;
	net)
		wait "$lpid" || true
		kill -TERM -- "-$tcpid" 2>/dev/null || true
		wait "$tcpid" 2>/dev/null || true
		trap - EXIT
		# a file per trial (tens of MiB at the top rates): the newest
		# is kept, to look at
		note "trace-cmd listen wrote $(find "$OUT/net-tc" -name 'net.*.dat' | wc -l) files, hyptrace listen -N $(grep -c '^hyptrace listen: connected to' "$OUT/net-listen.log" || true)"
		find "$OUT/net-tc" -name 'net.*.dat' -printf '%T@ %p\n' | sort -rn |
			tail -n +2 | cut -d' ' -f2- | xargs -r rm -f
		;;
	esac
	[ "$rc" = 0 ] || exit "$rc"
}

# The baseline boot: the same null hypercall without any trace site.
nosites_script() {
	local i

	echo 'set -e'
	echo 'insmod /root/bench_hvc.ko'
	for i in $(seq "$repeat"); do
		echo "./hyptrace-bench hvc --events none --calls $iterations"
	done
	echo "sh /root/fwcall.sh $iterations $repeat"
}

# The stage-2 comparison: the hypervisor built without stage 2, the same
# null hypercall and write_event loops as the main boot.
nostage2_script() {
	local i ev

	echo 'set -e'
	echo 'insmod /root/bench_hvc.ko'
	for i in $(seq "$repeat"); do
		for ev in none selftest; do
			echo "./hyptrace-bench loop --remote hypervisor --events $ev --iterations $iterations"
		done
		for ev in none hyp_enter,hyp_exit; do
			echo "./hyptrace-bench hvc --events $ev --calls $iterations"
		done
	done
}

# lastboot_boot NAME CALLS: row 5e's two boots in one QEMU run
# (bench/guest/lastboot.sh): CALLS null hypercalls per CPU into an LB_KB
# buffer, a panic, and the next boot, whose hypervisor checks the pages.
#
# Without sleep=off: Debian 12's QEMU 7.2 hung at the warm reset of most
# such runs with it (the vCPU thread spinning in qemu_timer_notify_cb()
# with the BQL held, the main loop waiting for it, QMP and SIGTERM
# unanswered: 2 of 2 runs here, 4 of 11 in another work tree) and at none
# without it, nor with QEMU 11.1. Sleep only decides how the clock moves
# while every CPU is idle, which never happens between the hypervisor's
# entry and Linux's: the row's instructions are the same.
lastboot_boot() {
	local -a ICOUNT=(-icount shift=0)

	boot "lastboot-$1" "sh /root/lastboot.sh $LB_KB $2" --reboots 1 \
		--append panic=1 --timeout 900 \
		--add "$HYPTRACE_TOP/bench/guest/lastboot.sh:/root/lastboot.sh"
}

# lastboot_figures NAME: "INSTRUCTIONS (pages P, events E)" from
# lastboot_boot NAME's console: the second boot's 5d less the first's, and
# what the hypervisor's "last boot:" line says it kept on all CPUs.
lastboot_figures() {
	local log=$OUT/lastboot-$1.log boots kept

	boots=$(grep -a '^hyptrace: entering Linux' "$log" |
		grep -a -o '[0-9]* ns after hypervisor entry' | cut -d' ' -f1)
	[ "$(echo "$boots" | wc -l)" = 2 ] ||
		die "lastboot-$1: not two boots in $log"
	kept=$(grep -a '^hyptrace: last boot: trace at' "$log" | awk '{
		for (i = 1; i <= NF; i++)
			if ($i ~ /^cpu[0-9]+$/) {
				split($(i + 1), f, "/"); pages += f[1]; events += f[3]
			}
		} END { if (NR == 1) print pages, events }')
	[ -n "$kept" ] || die "lastboot-$1: no last boot line in $log"
	echo "$(pretty "$(echo "$boots" | awk 'NR == 1 { a = $1 } NR == 2 { print $1 - a }')") (pages $(pretty "${kept% *}"), events $(pretty "${kept#* }"))"
}
