#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot the hyptrace hypervisor with the guest Linux in QEMU. See --help.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/scripts/lib.sh"
# shellcheck source=scripts/boards.sh
. "$(dirname "$0")/scripts/boards.sh"

usage() {
	cat <<'EOF'
Usage: ./qemu-run.sh [options] [-- extra qemu arguments]

Boot the hyptrace hypervisor in QEMU (arm64 "virt" with EL2); it runs the
guest Linux at EL1 with a busybox initramfs. By default you get a shell on
the guest console: type 'poweroff' to shut down, or press Ctrl-A X to quit
QEMU at any time.

Build:
  --no-build          do not run 'make all' first (by default it runs, which
                      installs missing packages and rebuilds what changed)
Machine:
  --board NAME        virt (default); zcu102: QEMU's Xilinx ZCU102 model
                      (-M xlnx-zcu102,virtualization=on: 4 Cortex-A53, a
                      GIC-400, the Cadence UART as the console, ttyPS0,
                      --mem default 2G); raspi3b: QEMU's Raspberry Pi 3B
                      (1 GiB; spin-table CPUs, which the hypervisor
                      releases and gives Linux PSCI for; no GIC; the
                      mini-UART as the console, ttyS1); raspi4b: the Pi
                      4B (QEMU 9.0 or later: --qemu; 2G; spin-table CPUs,
                      a GIC-400; the mini-UART, ttyS1); imx8mp-evk: the
                      i.MX8MP EVK (QEMU 9.1 or later: --qemu; GICv3, PSCI;
                      UART2 as the console, ttymxc1; --mem default 2G).
                      All but virt need the board's own tree with --dtb
                      (Debian's: scripts/fetch-stock-kernel.sh --dtb) and a
                      kernel that drives the board (--kernel: Debian's
                      stock one); --cpu, --smp and --gic do not apply
  --qemu PATH         the qemu-system-aarch64 to run: a binary, or a wrapper
                      that takes the same arguments, such as the one
                      scripts/setup-qemu-new.sh makes for Debian's newest
                      QEMU (default: $HYPTRACE_QEMU if set, otherwise
                      qemu-system-aarch64 from PATH)
  --cpu MODEL         QEMU CPU model (default cortex-a57; 'max' adds SVE,
                      VHE and 52-bit PA)
  --smp N             number of CPUs (default 4; the guest kernel supports 8)
  --gic 2|3           the interrupt controller, QEMU's gic-version (default
                      3); 2 is a GICv2 (GIC-400, as on a Raspberry Pi 4),
                      which serves at most 8 CPUs
  --mem SIZE          RAM size as QEMU takes it, e.g. 1G, 2048M (default 1G)
  --dtb FILE          boot with this device tree instead of the one QEMU
                      makes (QEMU -dtb; QEMU still fills in /chosen and
                      /memory), e.g. one from --dump-dtb edited with dtc
  --dump-dtb FILE     write the device tree QEMU makes for this machine
                      (--cpu, --smp, --gic, --mem; --uboot: the one it
                      gives U-Boot) to FILE and exit without booting
  --no-hyp            boot Linux directly, without the hypervisor (Linux then
                      enters at EL2); a baseline to compare with
  --hyp FILE          boot this hypervisor image instead of
                      build/hyp/hyptrace.bin (make bench uses it for its
                      baseline build)
  --uboot             boot like a board: Debian's U-Boot for QEMU is the
                      firmware; its standard boot finds boot.scr on a FAT
                      disk built for this run (boot/mkdisk.sh, no root) and
                      starts the hypervisor with booti (with --no-hyp,
                      Linux); see boot/README.md. On --board raspi3b and
                      raspi4b: Debian's U-Boot for the Pi (u-boot-rpi,
                      fetched by scripts/fetch-uboot-rpi.sh) from an SD
                      card
  --uboot-dtb FILE    with --uboot, put FILE on the boot disk as the
                      board's device tree (dtb_file in hyptrace.env):
                      boot.scr hands Linux that tree instead of the one
                      QEMU gave U-Boot
Guest:
  --kernel IMAGE      boot this arm64 Linux Image instead of the project's
                      kernel: a distribution's vmlinuz (Debian's is a plain
                      Image; scripts/fetch-stock-kernel.sh fetches one) or
                      your own arch/arm64/boot/Image, also gzip-compressed.
                      The project's initramfs still goes in; its modules
                      (hyptrace.ko, ...) are left out unless IMAGE is the
                      same Linux release they were built for
  --modules DIR       put the .ko files in DIR (or one .ko file) into
                      /lib/modules/hyptrace/, where the guest loads
                      hyptrace.ko from at boot: e.g. a hyptrace.ko built for
                      the --kernel IMAGE. If it does not load, the guest
                      says why on the console and boots on without tracing
  --append 'ARGS'     extra kernel command-line arguments
  --carveout SIZE[@BASE]
                      size of the trace carve-out, and where it starts
                      (hyptrace.carveout=, e.g. 64M or 64M@1536M; default
                      32M at the top of RAM, where U-Boot relocates itself)
  --virtio-trace DIR  add a virtio-serial device (virtio-mmio) with the ports
                      virtio-trace names: agent-ctl-path and one
                      trace-path-cpuN per CPU, each a QEMU chardev listening
                      on the UNIX socket DIR/<name> (made, with DIR, at
                      start; QEMU does not wait for a client). In the guest:
                      hyptrace agent; here: hyptrace listen --virtio DIR
  --add PATH[:DEST]   copy a host file or folder into the guest (default DEST
                      /root/<basename>); repeatable
  --cmd 'COMMAND'     scripted mode: run COMMAND with 'sh -c' in the guest
                      after boot (in /root), power off, and exit with its
                      exit status
Scripted mode (--cmd):
  --timeout SECS      hard limit for the whole run (default 600); exit 124
                      when it expires
  --idle-timeout SECS end the run when the console has printed nothing for
                      SECS (default 0: never); exit 124. For a guest that
                      prints as it goes: a limit on a hang, not on a slow
                      (loaded) machine, beside a generous --timeout
  --reboots N         let the machine warm-reset up to N times (a guest
                      panic, with panic=1, or a reboot): QEMU keeps RAM
                      and boots again, the hypervisor finds the last
                      boot's trace, and COMMAND runs on every boot; one
                      reset more ends the run with exit 125 (default 0:
                      the first reset ends QEMU)
  A guest kernel panic (beyond --reboots), a hypervisor PANIC, a guest that stops before the
  command finished, or (--uboot) U-Boot not booting the disk ends the run
  with exit 125 and a one-line reason.
Environment:
  HYPTRACE_QEMU       the QEMU to run, as --qemu (which wins over it)
Output:
  --log FILE          save the whole console output to FILE (with --cmd,
                      written as it comes: tail -f works)
  --quiet             do not show the console (or progress lines) on stdout
                      (with --cmd or --dump-dtb)
  -h, --help          show this help

Anything after '--' goes to QEMU unchanged, e.g. -- -icount shift=0

Examples:
  ./qemu-run.sh                                  # interactive shell
  ./qemu-run.sh --smp 8 --cpu max
  ./qemu-run.sh --cmd 'cat /proc/cpuinfo'        # run one command
  ./qemu-run.sh --add ./mytool --cmd './mytool'  # ship a file and run it
  ./qemu-run.sh --uboot --cmd 'uname -a'         # through U-Boot
  ./qemu-run.sh --dump-dtb virt.dtb && dtc -I dtb -O dts virt.dtb >virt.dts
  ./qemu-run.sh --dtb edited.dtb                 # after dtc -O dtb edited.dts
  ./qemu-run.sh --kernel "$(scripts/fetch-stock-kernel.sh bookworm)" \
      --gic 2 --cmd 'uname -r'                   # Debian 12's own kernel
  ./qemu-run.sh --qemu "$(scripts/setup-qemu-new.sh)" --cpu neoverse-n2
                                                 # Debian's newest QEMU
EOF
}

# Options and their defaults.
opt_build=1
opt_qemu=${HYPTRACE_QEMU:-qemu-system-aarch64}	# --qemu, or $HYPTRACE_QEMU
opt_board=virt
opt_cpu=cortex-a57
opt_smp=4
opt_gic=3
opt_mem=
opt_dtb=
opt_dump_dtb=
opt_hyp=1
opt_hyp_image=
opt_uboot=0
opt_uboot_dtb=
opt_kernel=
opt_modules=
opt_append=
opt_carveout=
opt_cmd=
opt_cmd_set=0
opt_timeout=600
opt_idle_timeout=0
opt_reboots=0
opt_log=
opt_quiet=0
opt_adds=()
opt_virtio_trace=
opt_qemu_extra=()

# Debian's U-Boot for QEMU "virt" on arm64 (package u-boot-qemu)
UBOOT_BIN=/usr/lib/u-boot/qemu_arm64/u-boot.bin
# U-Boot's prompt: where it ends up when it found nothing to boot (the
# Pi's U-Boot says "U-Boot> ")
UBOOT_PROMPT='=> '
UBOOT_RPI_PROMPT='U-Boot> '

# Set by check_qemu().
qemu_version=

# Set by check_kernel(): the Image to boot, its Linux release ("6.1.0-56-arm64",
# from its banner; empty if not found) and whether the project's modules
# from the base initramfs suit it.
guest_kernel=
guest_release=
project_modules=1

# Set by main() and used by the cleanup trap.
run_dir=
qemu_pid=

# Status lines go to stderr, and disappear with --quiet.
say() { [ "$opt_quiet" = 1 ] || step "$@"; }
tell() { [ "$opt_quiet" = 1 ] || note "$@"; }

# The one-line verdict of a failed scripted run; always shown.
verdict() { printf 'qemu-run: %s\n' "$*" >&2; }

need_arg() {
	[ "$2" -ge 2 ] || die "option $1 needs an argument (see --help)"
}

parse_args() {
	while [ $# -gt 0 ]; do
		case $1 in
		--no-build) opt_build=0 ;;
		--qemu) need_arg "$1" $#; opt_qemu=$2; shift ;;
		--board) need_arg "$1" $#; opt_board=$2; shift ;;
		--cpu) need_arg "$1" $#; opt_cpu=$2; shift ;;
		--smp) need_arg "$1" $#; opt_smp=$2; shift ;;
		--gic) need_arg "$1" $#; opt_gic=$2; shift ;;
		--mem) need_arg "$1" $#; opt_mem=$2; shift ;;
		--dtb) need_arg "$1" $#; opt_dtb=$2; shift ;;
		--dump-dtb) need_arg "$1" $#; opt_dump_dtb=$2; shift ;;
		--no-hyp) opt_hyp=0 ;;
		--hyp) need_arg "$1" $#; opt_hyp_image=$2; shift ;;
		--uboot) opt_uboot=1 ;;
		--uboot-dtb) need_arg "$1" $#; opt_uboot_dtb=$2; shift ;;
		--kernel) need_arg "$1" $#; opt_kernel=$2; shift ;;
		--modules) need_arg "$1" $#; opt_modules=$2; shift ;;
		--append) need_arg "$1" $#; opt_append+=" $2"; shift ;;
		--carveout) need_arg "$1" $#; opt_carveout=$2; shift ;;
		--add) need_arg "$1" $#; opt_adds+=("$2"); shift ;;
		--virtio-trace) need_arg "$1" $#; opt_virtio_trace=$2; shift ;;
		--cmd) need_arg "$1" $#; opt_cmd=$2; opt_cmd_set=1; shift ;;
		--timeout) need_arg "$1" $#; opt_timeout=$2; shift ;;
		--idle-timeout) need_arg "$1" $#; opt_idle_timeout=$2; shift ;;
		--reboots) need_arg "$1" $#; opt_reboots=$2; shift ;;
		--log) need_arg "$1" $#; opt_log=$2; shift ;;
		--quiet) opt_quiet=1 ;;
		-h|--help) usage; exit 0 ;;
		--) shift; opt_qemu_extra=("$@"); break ;;
		*) die "unknown option '$1' (see --help)" ;;
		esac
		shift
	done

	board_check
	[[ $opt_smp =~ ^[1-9][0-9]*$ ]] || die "--smp wants a number, not '$opt_smp'"
	[[ $opt_reboots =~ ^[0-9]+$ ]] || die "--reboots wants a number, not '$opt_reboots'"
	[[ $opt_gic =~ ^[23]$ ]] || die "--gic wants 2 or 3, not '$opt_gic'"
	[ "$opt_gic" = 3 ] || [ "$opt_smp" -le 8 ] ||
		die "--gic 2: a GICv2 serves at most 8 CPUs, not --smp $opt_smp"
	[ "$opt_smp" -le 8 ] || [ -n "$opt_kernel" ] ||
		note "warning: the guest kernel is built for at most 8 CPUs (CONFIG_NR_CPUS)"
	if [ -n "$opt_kernel" ] && [ ! -f "$opt_kernel" ]; then
		die "--kernel: $opt_kernel is not a file"
	fi
	if [ -n "$opt_dtb" ]; then
		[ -f "$opt_dtb" ] || die "--dtb: $opt_dtb is not a file"
		# A flattened device tree starts with the magic 0xd00dfeed.
		[ "$(od -An -tx1 -N4 "$opt_dtb" | tr -d ' ')" = d00dfeed ] ||
			die "--dtb: $opt_dtb is not a device tree blob (compile a .dts with dtc -O dtb)"
		[[ $opt_dtb == /* ]] || opt_dtb=$PWD/$opt_dtb
	fi
	if [ -n "$opt_uboot_dtb" ]; then
		[ "$opt_uboot" = 1 ] || die "--uboot-dtb is for --uboot"
		[ "$(od -An -tx1 -N4 "$opt_uboot_dtb" 2>/dev/null | tr -d ' ')" = d00dfeed ] ||
			die "--uboot-dtb: $opt_uboot_dtb is not a device tree blob"
	fi
	if [ -n "$opt_modules" ] && [ ! -e "$opt_modules" ]; then
		die "--modules: $opt_modules does not exist"
	fi
	[[ $opt_timeout =~ ^[1-9][0-9]*$ ]] ||
		die "--timeout wants a number of seconds, not '$opt_timeout'"
	[[ $opt_idle_timeout =~ ^[0-9]+$ ]] ||
		die "--idle-timeout wants a number of seconds, not '$opt_idle_timeout'"
	if [ -n "$opt_carveout" ] &&
	   ! [[ $opt_carveout =~ ^[0-9]+[KMG]?(@[0-9]+[KMG]?)?$ ]]; then
		die "--carveout wants a size like 64M, or a size and base like 64M@1536M, not '$opt_carveout'"
	fi
	return 0
}

# Check the QEMU that --qemu or $HYPTRACE_QEMU names (or the default) and set
# qemu_version to its version line, e.g. "11.1.3 (Debian 1:11.1.3+ds-1~bpo13+1)".
# A path is made absolute, so that it means the same wherever QEMU runs.
check_qemu() {
	local bin=$opt_qemu
	[ -n "$bin" ] || die "--qemu/HYPTRACE_QEMU is empty"
	if [[ $bin == */* ]]; then
		if [ ! -f "$bin" ] || [ ! -x "$bin" ]; then
			die "QEMU '$bin' (--qemu or HYPTRACE_QEMU) is not an executable file"
		fi
		[[ $bin == /* ]] || bin=$PWD/$bin
	else
		bin=$(command -v "$bin") ||
			die "'$opt_qemu' is not in PATH: install qemu-system-arm ('make deps'), or pick a QEMU with --qemu PATH"
	fi
	qemu_version=$("$bin" --version 2>&1 </dev/null | head -n 1) || true
	[[ $qemu_version == "QEMU emulator version "* ]] ||
		die "'$bin --version' does not answer like QEMU: ${qemu_version:-no output}"
	qemu_version=${qemu_version#QEMU emulator version }
	opt_qemu=$bin
}

# A value from build/kernel.env, read rather than sourced: KERNEL_PACKAGE
# holds a space.
kenv() {
	local env=$HYPTRACE_BUILD/kernel.env
	[ -f "$env" ] || die "$env missing: run 'make' (or drop --no-build)"
	sed -n "s/^$1=//p" "$env"
}

# The Linux release an Image says it is ("Linux version RELEASE (...)" in
# its banner), or nothing.
image_release() {
	LC_ALL=C grep -a -o -m 1 -E 'Linux version [^ %]+ \(' "$1" 2>/dev/null |
		head -n 1 | cut -d' ' -f3
}

# What the bytes at OFFSET (COUNT of them) of FILE are, as text.
bytes_at() {
	dd if="$1" bs=1 skip="$2" count="$3" status=none 2>/dev/null | tr -d '\0'
}

# Is FILE an arm64 Linux Image ("ARM\x64" at offset 56 of its header)?
is_arm64_image() {
	[ "$(bytes_at "$1" 56 4)" = $'ARM\x64' ]
}

# Why FILE is no arm64 Image, as the end of a one-line error.
not_image_reason() {
	local f=$1 what
	if [ "$(bytes_at "$f" 0 2)" = MZ ] && [ "$(bytes_at "$f" 4 4)" = zimg ]; then
		echo "it is an EFI zboot image (compressed with $(bytes_at "$f" 24 8)); give the plain Image (arch/arm64/boot/Image)"
		return 0
	fi
	what=$(file -b "$f" 2>/dev/null | cut -c1-80)
	case $what in
	ELF*) echo "it is an ELF file (a vmlinux?); give the Image made from it (arch/arm64/boot/Image)" ;;
	*compressed*|*"compress'd"*) echo "it is ${what%%,*}; only a plain or gzip-compressed Image boots" ;;
	*) printf 'no "ARM\\x64" magic at offset 56%s\n' "${what:+ (file: $what)}" ;;
	esac
}

# Check --kernel and set guest_kernel, guest_release and project_modules.
# A gzip-compressed Image is unpacked into the run directory.
check_kernel() {
	local f=${opt_kernel:-} project
	if [ -z "$f" ]; then
		guest_kernel=$(kenv KERNEL_IMAGE)
		[ -f "$guest_kernel" ] || die "guest kernel $guest_kernel missing: run 'make kernel'"
		guest_release=$(kenv KERNEL_VERSION)
		return 0
	fi
	[[ $f == /* ]] || f=$PWD/$f
	if [ "$(bytes_at "$f" 0 2 | od -An -tx1 | tr -d ' ')" = 1f8b ]; then
		gzip -dc "$f" >"$run_dir/Image" 2>/dev/null ||
			die "--kernel: $opt_kernel looks gzip-compressed but does not decompress"
		is_arm64_image "$run_dir/Image" ||
			die "--kernel: $opt_kernel is gzip-compressed, but not an arm64 Linux Image inside: $(not_image_reason "$run_dir/Image")"
		tell "--kernel: decompressed $opt_kernel"
		f=$run_dir/Image
	fi
	is_arm64_image "$f" ||
		die "--kernel: $opt_kernel is not an arm64 Linux Image: $(not_image_reason "$f")"
	guest_kernel=$f
	guest_release=$(image_release "$f")
	# The base initramfs holds modules built for the project's kernel:
	# keep them only for an Image of that same release.
	project=$(image_release "$(kenv KERNEL_IMAGE)")
	[ -n "$project" ] || project=$(kenv KERNEL_VERSION)
	if [ -z "$guest_release" ] || [ "$guest_release" != "$project" ]; then
		project_modules=0
		tell "the project's modules are built for Linux $project, not" \
			"${guest_release:-this --kernel}: left out$(
			[ -n "$opt_modules" ] || echo "; --modules DIR brings modules for it")"
	fi
	return 0
}

build() {
	local log=$run_dir/build.log
	# A new machine may not have make yet: the package set-up that
	# 'make all' starts with installs it.
	if ! command -v make >/dev/null 2>&1; then
		say "installing the packages the build needs (make is missing)"
		bash "$HYPTRACE_TOP/scripts/setup-deps.sh" ||
			die "scripts/setup-deps.sh failed"
	fi
	say "building (make all; --no-build skips this)"
	if [ "$opt_quiet" = 0 ]; then
		make -C "$HYPTRACE_TOP" -s all && return 0
	else
		# Quiet: show the build's output only when it fails.
		make -C "$HYPTRACE_TOP" -s all >"$log" 2>&1 && return 0
		cat "$log" >&2
	fi
	die "the build failed; fix it, or boot what was built before with --no-build"
}

# Write the per-run archive: the --cmd command and the --add files. The
# kernel unpacks concatenated archives in order, so these land on top of the
# base initramfs.
make_extra_cpio() {
	local out=$1 stage=$run_dir/extra add src dest

	mkdir -p "$stage/root"
	chmod 700 "$stage/root"
	if [ "$opt_cmd_set" = 1 ]; then
		mkdir -p "$stage/etc/hyptrace"
		printf '%s\n' "$opt_cmd" >"$stage/etc/hyptrace/cmd"
	fi
	for add in "${opt_adds[@]+"${opt_adds[@]}"}"; do
		# PATH:DEST only when what follows the last ':' is absolute, so
		# that host paths with a ':' in them still work.
		if [[ $add == *:/* ]]; then
			src=${add%:*}
			dest=${add##*:}
		else
			src=$add
			dest=/root/$(basename "$add")
		fi
		[ -e "$src" ] || die "--add: $src does not exist"
		mkdir -p "$stage$(dirname "$dest")"
		cp -a "$src" "$stage$dest"
		tell "adding $src as $dest"
	done
	[ -z "$opt_modules" ] || add_modules "$stage/lib/modules/hyptrace"
	(cd "$stage" && find . -mindepth 1 | LC_ALL=C sort |
		cpio -o -H newc -R 0:0 --quiet) | gzip -n >"$out"
}

# --modules: copy DIR's .ko files (or the one .ko file) to DEST.
add_modules() {
	local dest=$1 src=$opt_modules kos=() ko
	if [ -d "$src" ]; then
		for ko in "$src"/*.ko; do
			[ -f "$ko" ] && kos+=("$ko")
		done
		[ ${#kos[@]} -gt 0 ] || die "--modules: no .ko files in $src"
	elif [[ $src == *.ko ]]; then
		kos=("$src")
	else
		die "--modules: $src is neither a directory nor a .ko file"
	fi
	mkdir -p "$dest"
	cp "${kos[@]}" "$dest/"
	tell "--modules: /lib/modules/hyptrace/ gets $(cd "$dest" && echo *.ko)"
}

# The base initramfs without the project's modules (for a --kernel they
# were not built for): unpacked, thinned and packed again for this run.
strip_modules() {
	local base=$1 out=$2 stage=$run_dir/base
	mkdir -p "$stage"
	(cd "$stage" && gzip -dc "$base" |
		cpio -i -d --quiet --no-absolute-filenames) ||
		die "cannot unpack $base"
	rm -f "$stage"/lib/modules/hyptrace/*.ko
	(cd "$stage" && find . -mindepth 1 | LC_ALL=C sort |
		cpio -o -H newc -R 0:0 --quiet) | gzip -1 -n >"$out"
	rm -rf "$stage"
}

make_initramfs() {
	local base=$HYPTRACE_BUILD/initramfs.cpio.gz
	[ -f "$base" ] || die "$base missing: run 'make' (or drop --no-build)"
	if [ "$project_modules" = 0 ]; then
		strip_modules "$base" "$run_dir/base.cpio.gz"
		base=$run_dir/base.cpio.gz
	fi
	make_extra_cpio "$run_dir/extra.cpio.gz"
	cat "$base" "$run_dir/extra.cpio.gz" >"$run_dir/initramfs.cpio.gz"
}

# The boot disk U-Boot boots from, built for each run because it holds this
# run's initramfs and kernel command line.
make_boot_disk() {
	local kernel=$1 append=$2 hyp=none args=() fw=$run_dir/firmware

	if [ "$opt_board" = virt ]; then
		[ -f "$UBOOT_BIN" ] ||
			die "U-Boot $UBOOT_BIN missing: install u-boot-qemu ('make deps')"
	fi
	mkdir -p "$fw"
	board_uboot_firmware "$fw"
	mapfile -t args < <(board_uboot_disk_args "$fw")
	[ -z "$opt_uboot_dtb" ] || args+=(--dtb "$opt_uboot_dtb")
	[ "$opt_hyp" = 0 ] || hyp=$hyp_image
	say "building the U-Boot boot disk (boot/mkdisk.sh)"
	bash "$HYPTRACE_TOP/boot/mkdisk.sh" "${args[@]+"${args[@]}"}" \
		"$run_dir/boot.img" "$hyp" "$kernel" \
		"$run_dir/initramfs.cpio.gz" "$append"
}

# --dump-dtb: QEMU writes the device tree it made and exits. With --uboot,
# the one QEMU makes for U-Boot: with firmware to run, virt has no PL061
# GPIO (nor the power-off key on it).
dump_dtb() {
	local args out=$opt_dump_dtb
	mapfile -t args < <(board_machine_args)
	args[1]+=",dumpdtb=$out"
	[ "$opt_uboot" = 0 ] || args+=(-bios "$UBOOT_BIN")
	"$opt_qemu" "${args[@]}" </dev/null >"$run_dir/dumpdtb.log" 2>&1 ||
		die "QEMU did not dump its device tree: $(tail -n 1 "$run_dir/dumpdtb.log")"
	[ -s "$out" ] || die "QEMU did not write $out"
	tell "device tree for virt, $opt_cpu x $opt_smp, GICv$opt_gic, $opt_mem RAM: $out"
}

# Fill the qemu_cmd array.
qemu_command() {
	local kernel=$guest_kernel append hyp_image

	append="console=$(board_console) earlycon"
	# Scripted runs must end: a guest panic resets at once, and with
	# -no-reboot a reset ends QEMU. With --reboots the resets that are
	# allowed boot again, a second after the panic as a board would.
	if [ "$opt_cmd_set" = 1 ] && [ "$opt_reboots" = 0 ]; then
		append+=" panic=-1"
	elif [ "$opt_cmd_set" = 1 ]; then
		append+=" panic=1"
	fi
	[ -n "$opt_carveout" ] && append+=" hyptrace.carveout=$opt_carveout"
	append+=$opt_append

	qemu_cmd=("$opt_qemu")
	mapfile -t -O 1 qemu_cmd < <(board_machine_args)
	[ -z "$opt_dtb" ] || qemu_cmd+=(-dtb "$opt_dtb")
	hyp_image=${opt_hyp_image:-$HYPTRACE_BUILD/hyp/hyptrace.bin}
	if [ "$opt_hyp" = 1 ] && [ ! -f "$hyp_image" ]; then
		[ -z "$opt_hyp_image" ] ||
			die "--hyp: hypervisor image $hyp_image does not exist"
		die "hypervisor $hyp_image missing: run 'make hyp', or boot Linux alone with --no-hyp"
	fi
	if [ "$opt_uboot" = 1 ]; then
		# The disk carries the images and the command line; U-Boot
		# puts them into the device tree the way QEMU would.
		make_boot_disk "$kernel" "$append"
		mapfile -t -O "${#qemu_cmd[@]}" qemu_cmd < \
			<(board_uboot_qemu_args "$run_dir/boot.img")
	else
		if [ "$opt_hyp" = 1 ]; then
			qemu_cmd+=(-kernel "$hyp_image"
				-device "loader,file=$kernel,addr=$(board_kernel_addr),force-raw=on")
		else
			qemu_cmd+=(-kernel "$kernel")
		fi
		qemu_cmd+=(-initrd "$run_dir/initramfs.cpio.gz" -append "$append")
	fi
	[ "$opt_cmd_set" = 1 ] && [ "$opt_reboots" = 0 ] && qemu_cmd+=(-no-reboot)
	[ -z "$opt_virtio_trace" ] || virtio_trace_args
	qemu_cmd+=("${opt_qemu_extra[@]+"${opt_qemu_extra[@]}"}")
	return 0
}

# --virtio-trace DIR: the virtio-serial ports of the virtio-trace model,
# each on a UNIX socket in DIR that QEMU listens on (server=on, wait=off:
# the guest runs whether or not anyone has connected)
virtio_trace_args() {
	local dir=$opt_virtio_trace i
	mkdir -p "$dir" || die "--virtio-trace: cannot make $dir"
	dir=$(cd "$dir" && pwd)
	rm -f "$dir/agent-ctl-path" "$dir"/trace-path-cpu*
	qemu_cmd+=(-device virtio-serial-device,id=vtser0
		-chardev "socket,id=vtctl,path=$dir/agent-ctl-path,server=on,wait=off"
		-device virtserialport,bus=vtser0.0,nr=1,chardev=vtctl,name=agent-ctl-path)
	for ((i = 0; i < opt_smp; i++)); do
		qemu_cmd+=(-chardev "socket,id=vtcpu$i,path=$dir/trace-path-cpu$i,server=on,wait=off"
			-device "virtserialport,bus=vtser0.0,nr=$((i + 2)),chardev=vtcpu$i,name=trace-path-cpu$i")
	done
}

cleanup() {
	if [ -n "$qemu_pid" ] && kill -0 "$qemu_pid" 2>/dev/null; then
		kill "$qemu_pid" 2>/dev/null || true
	fi
	[ -z "$run_dir" ] || rm -rf "$run_dir"
}

run_interactive() {
	say "booting: Ctrl-A X quits QEMU, 'poweroff' in the guest shuts down"
	if [ -n "$opt_log" ]; then
		"${qemu_cmd[@]}" | tee "$opt_log"
	else
		"${qemu_cmd[@]}"
	fi
}

# Copy the console from QEMU to the log and (unless --quiet) to stdout, and
# note the first sign of a panic. After a panic, give QEMU a few seconds to
# finish on its own (the hypervisor dumps registers and powers off, the
# guest resets), then stop it: a panic must never turn into a hang. With
# --reboots N, the first N guest panics and resets are part of the run; the
# reset after them ends it.
#
# With --uboot, until U-Boot starts the kernel, also note U-Boot giving up
# (the boot script's FAILED line, U-Boot's "SCRIPT FAILED", or its prompt)
# and stop QEMU at once: without a key pressed U-Boot never moves on. Its
# prompt has no newline, so reads time out meanwhile to look at what came
# of the current line so far.
#
# With --idle-timeout, reads time out too, to see how long the console has
# been silent: after that many seconds without a character, note it in
# IDLE_FILE and stop QEMU.
watch_console() {
	local log=$1 panic_file=$2 uboot_file=$3 idle_file=$4
	local line rc reason in_uboot=$opt_uboot partial='' prev='' killer=
	local resets=0 panics=0 heard=$SECONDS
	local wait_line=() idle_wait=()

	[ "$opt_idle_timeout" = 0 ] || idle_wait=(-t 5)
	[ "$in_uboot" = 0 ] || wait_line=(-t 2)
	while :; do
		rc=0
		[ ${#wait_line[@]} -gt 0 ] || wait_line=("${idle_wait[@]+"${idle_wait[@]}"}")
		IFS= read -r "${wait_line[@]+"${wait_line[@]}"}" line || rc=$?
		if [ "$rc" -gt 128 ]; then
			[ -z "$line" ] || heard=$SECONDS
			partial+=$line
			if [ "$opt_idle_timeout" != 0 ] && [ ! -s "$idle_file" ] &&
			   [ $((SECONDS - heard)) -ge "$opt_idle_timeout" ]; then
				echo "the console printed nothing for ${opt_idle_timeout}s (--idle-timeout)" >"$idle_file"
				kill "$qemu_pid" 2>/dev/null || true
			fi
			if [ "$in_uboot" = 1 ] && { [ "$partial" = "$UBOOT_PROMPT" ] ||
			   [ "$partial" = "$UBOOT_RPI_PROMPT" ]; }; then
				in_uboot=0
				wait_line=()
				uboot_gave_up "$uboot_file" "U-Boot did not find boot.scr on the disk and stopped at its prompt"
			fi
			continue
		fi
		heard=$SECONDS
		line=$partial$line
		partial=
		# End of input, with or without a last unterminated line.
		[ "$rc" = 0 ] || [ -n "$line" ] || break
		line=${line%$'\r'}
		printf '%s\n' "$line" >>"$log"
		[ "$opt_quiet" = 1 ] || printf '%s\n' "$line"
		if [ "$in_uboot" = 1 ]; then
			reason=
			case $line in
			"Starting kernel ..."*)
				in_uboot=0 ;;
			"hyptrace-boot: FAILED: "*)
				reason="boot.scr failed: ${line#*FAILED: }"
				# U-Boot's own complaint, if any, came just before.
				[[ $prev == hyptrace-boot:* ]] || reason+=" (U-Boot: $prev)"
				;;
			"SCRIPT FAILED"*)
				reason="a boot script ran but did not boot (not hyptrace's boot.scr?)" ;;
			esac
			if [ -n "$reason" ]; then
				in_uboot=0
				uboot_gave_up "$uboot_file" "$reason"
			fi
			[ "$in_uboot" = 1 ] || wait_line=()
		fi
		if [ -z "$killer" ]; then
			case $line in
			*"Kernel panic"*)
				panics=$((panics + 1))
				[ "$panics" -le "$opt_reboots" ] || stop_on_panic "$line"
				;;
			*"hyptrace: PANIC"*)
				stop_on_panic "$line" ;;
			*"Power off not available: System halted instead"*|\
			*"hyptrace: no firmware to power off or reset"*)
				# No way to power off (raspi3b: no PSCI
				# firmware, the hypervisor's answers
				# NOT_SUPPORTED and Linux has no other
				# handler): the guest is done, QEMU would
				# run on
				kill "$qemu_pid" 2>/dev/null || true ;;
			*"hyptrace: SYSTEM_RESET from CPU"*)
				# Without --reboots, -no-reboot ends QEMU
				resets=$((resets + 1))
				[ "$opt_reboots" = 0 ] || [ "$resets" -le "$opt_reboots" ] ||
					stop_on_panic "reset $resets, more than --reboots $opt_reboots: $line"
				;;
			esac
		fi
		[ -z "$line" ] || prev=$line
		[ "$rc" = 0 ] || break
	done
	return 0
}

# stop_on_panic LINE (in watch_console): note it, end QEMU in 5 seconds.
stop_on_panic() {
	printf '%s\n' "$1" >"$panic_file"
	(sleep 5; kill "$qemu_pid" 2>/dev/null) &
	killer=$!
}

# uboot_gave_up FILE REASON: note why, and end QEMU.
uboot_gave_up() {
	printf '%s\n' "$2" >"$1"
	kill "$qemu_pid" 2>/dev/null || true
}

# For a verdict: whether U-Boot ever got to the boot script.
uboot_hint() {
	if [ "$opt_uboot" = 1 ] &&
	   ! grep -q '^hyptrace-boot: running boot.scr' "$1"; then
		echo "; U-Boot never ran boot.scr"
	fi
	return 0
}

# Run with --cmd; print the verdict and return the exit status to use.
run_scripted() {
	local console=${opt_log:-$run_dir/console.log} fifo=$run_dir/console.fifo
	local panic_file=$run_dir/panic uboot_file=$run_dir/uboot-failed
	local idle_file=$run_dir/idle
	local rc=0 status

	say "booting; running: $opt_cmd"
	: >"$console"
	mkfifo "$fifo"
	# stdin from /dev/null: the guest needs no input, and QEMU then leaves
	# the terminal alone.
	timeout --kill-after=5 "$opt_timeout" "${qemu_cmd[@]}" \
		</dev/null >"$fifo" 2>&1 &
	qemu_pid=$!
	watch_console "$console" "$panic_file" "$uboot_file" "$idle_file" <"$fifo"
	wait "$qemu_pid" || rc=$?
	qemu_pid=

	status=$(grep -a -o 'hyptrace-guest: exit status [0-9]*' "$console" |
		tail -n 1 | grep -o '[0-9]*$' || true)
	if [ -s "$panic_file" ]; then
		verdict "panic: $(sed 's/^[[:space:]]*\[[ 0-9.]*\] //' "$panic_file")"
		return 125
	elif [ -s "$uboot_file" ]; then
		verdict "U-Boot: $(cat "$uboot_file")"
		return 125
	elif [ -s "$idle_file" ]; then
		verdict "hung: $(cat "$idle_file")"
		return 124
	elif [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		verdict "timed out after ${opt_timeout}s (--timeout)$(uboot_hint "$console")"
		return 124
	elif [ -z "$status" ]; then
		if grep -q 'hyptrace-guest: ready' "$console"; then
			verdict "the guest stopped before the command finished (QEMU exit $rc)"
		else
			verdict "the guest never became ready (QEMU exit $rc)$(uboot_hint "$console")"
		fi
		return 125
	fi
	return "$status"
}

main() {
	parse_args "$@"
	if [ "$opt_cmd_set" = 0 ] && [ -z "$opt_dump_dtb" ] &&
	   [ "$opt_quiet" = 1 ]; then
		opt_quiet=0
		note "--quiet applies to --cmd and --dump-dtb runs only; showing the console"
	fi

	run_dir=$(mktemp -d "${TMPDIR:-/tmp}/hyptrace-run.XXXXXX")
	trap cleanup EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	[ "$opt_build" = 0 ] || build
	check_qemu
	if [ -n "$opt_dump_dtb" ]; then
		dump_dtb
		exit 0
	fi
	check_kernel
	make_initramfs
	qemu_command

	tell "QEMU $qemu_version: $opt_qemu"
	tell "$( [ "$opt_hyp" = 1 ] && echo "hyptrace + " )Linux ${guest_release:-?}$(
		[ -n "$opt_kernel" ] && echo " ($opt_kernel)" )$(
		[ "$opt_uboot" = 1 ] && echo " through U-Boot" )," \
		"$(board_summary), $opt_mem RAM${opt_dtb:+, device tree $opt_dtb}"
	if [ "$opt_cmd_set" = 1 ]; then
		local rc=0
		run_scripted || rc=$?
		exit "$rc"
	fi
	run_interactive
}

main "$@"
