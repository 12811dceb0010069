# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
#
# The machines ./qemu-run.sh --board boots, sourced by it: what differs
# between them. virt is QEMU's own machine, with the tree QEMU makes; the
# others are QEMU's models of real boards, booted with the board's own
# device tree (--dtb, e.g. Debian's: scripts/fetch-stock-kernel.sh --dtb)
# and a kernel that drives the board (--kernel, e.g. Debian's stock one).
# Each function reads qemu-run.sh's opt_* variables.
# shellcheck disable=SC2154 # opt_* are qemu-run.sh's

BOARDS="virt zcu102 raspi3b raspi4b imx8mp-evk"

# board_check: refuse options $opt_board cannot take; set its defaults
board_check() {
	case " $BOARDS " in
	*" $opt_board "*) ;;
	*) die "--board wants one of: $BOARDS; not '$opt_board'" ;;
	esac
	case $opt_board in
	zcu102|imx8mp-evk|raspi4b) opt_mem=${opt_mem:-2G} ;;
	*) opt_mem=${opt_mem:-1G} ;;
	esac
	[ "$opt_board" != virt ] || return 0
	[ -n "$opt_dtb" ] ||
		die "--board $opt_board needs the board's device tree with --dtb (scripts/fetch-stock-kernel.sh --dtb, see --help)"
	if [ "$opt_uboot" = 1 ] && [ "$opt_board" != raspi4b ] &&
	   [ "$opt_board" != raspi3b ]; then
		die "--board $opt_board: --uboot is for virt, raspi3b and raspi4b"
	fi
	if [ -n "$opt_dump_dtb" ] || [ -n "$opt_virtio_trace" ]; then
		die "--board $opt_board: --dump-dtb and --virtio-trace are for virt"
	fi
}

# board_machine_args: QEMU's arguments for the machine, the same for a
# boot and for --dump-dtb, one a line; "-M ..." first, so that --dump-dtb
# can add to it
board_machine_args() {
	case $opt_board in
	zcu102)
		# Its CPUs and GIC are fixed; a null audio backend, so that
		# QEMU opens no sound device for the board's DisplayPort
		printf '%s\n' -M xlnx-zcu102,virtualization=on -m "$opt_mem" \
			-nographic -audiodev none,id=n0 -nic none ;;
	raspi3b|raspi4b)
		# The mini-UART is the second serial port, the PL011 (for
		# Bluetooth on the board) the first
		printf '%s\n' -M "$opt_board" -m "$opt_mem" -nographic \
			-serial null -serial mon:stdio ;;
	imx8mp-evk)
		# The EVK's console is UART2, the second serial port
		printf '%s\n' -M imx8mp-evk -m "$opt_mem" -nographic \
			-serial null -serial mon:stdio ;;
	*)
		printf '%s\n' -M "virt,virtualization=on,gic-version=$opt_gic" \
			-cpu "$opt_cpu" -smp "$opt_smp" -m "$opt_mem" -nographic \
			-nic none # the guest has no network driver; this skips the NIC ROM
		;;
	esac
}

# With --uboot: board_uboot_disk_args prints boot/mkdisk.sh's options for
# the board, one a line (the Pi's: where its U-Boot leaves room, and the
# firmware's files, which board_uboot_firmware put into DIR); then
# board_uboot_qemu_args DISK QEMU's arguments that start U-Boot with the
# disk. The Pi 4: Debian's U-Boot rpi_4 (scripts/fetch-uboot-rpi.sh) on
# QEMU's raspi4b (QEMU 9.0 or later), which loads it as the firmware
# would from kernel= in config.txt and spins CPUs 1-3 as the armstub
# does; the card is the SD card (U-Boot's mmc 0). The Pi 3 the same way,
# with U-Boot rpi_3 on QEMU's raspi3b. Linux at 48 MiB, above
# U-Boot's scriptaddr, fdt_addr_r and ramdisk_addr_r (36-39 MiB). virt's
# U-Boot has no fdt_addr_r: a tree from the card (--uboot-dtb) goes 1 MiB
# into RAM, after QEMU's own tree and below U-Boot's scriptaddr.
UBOOT_RPI=	# set by board_uboot_firmware
board_uboot_firmware() {
	local dir=$1 log=$1/fetch-uboot-rpi.log config
	case $opt_board in
	raspi3b) config=rpi_3 ;;
	raspi4b) config=rpi_4 ;;
	*) return 0 ;;
	esac
	UBOOT_RPI=$(bash "$HYPTRACE_TOP/scripts/fetch-uboot-rpi.sh" "$config" \
		2>"$log" | tail -n 1) || true
	[ -f "$UBOOT_RPI" ] ||
		die "scripts/fetch-uboot-rpi.sh $config: $(tail -n 1 "$log")"
	cp "$UBOOT_RPI" "$dir/u-boot.bin"
	# What the Pi's firmware reads from the card: a 64-bit kernel, which
	# is U-Boot, and the mini-UART on (it is the console)
	printf '%s\n' arm_64bit=1 kernel=u-boot.bin enable_uart=1 >"$dir/config.txt"
}

board_uboot_disk_args() {
	case $opt_board in
	raspi3b|raspi4b)
		printf '%s\n' --hyp-addr 0x200000 --linux-addr 0x3000000 \
			--file "$1/u-boot.bin" --file "$1/config.txt" ;;
	*) printf '%s\n' --dtb-addr 0x40100000 ;;
	esac
}

board_uboot_qemu_args() {
	case $opt_board in
	raspi3b|raspi4b)
		printf '%s\n' -kernel "$UBOOT_RPI" -drive "file=$1,format=raw,if=sd" ;;
	*) printf '%s\n' -bios "$UBOOT_BIN" -drive "file=$1,format=raw,if=virtio" ;;
	esac
}

# board_console: the board's console as Linux names it
board_console() {
	case $opt_board in
	zcu102) echo ttyPS0 ;;
	raspi3b|raspi4b) echo ttyS1 ;;
	imx8mp-evk) echo ttymxc1 ;;
	*) echo ttyAMA0 ;;
	esac
}

# board_kernel_addr: where the hypervisor expects the kernel, 2 MiB above
# itself, which QEMU loads 2 MiB into RAM
board_kernel_addr() {
	case $opt_board in
	zcu102|raspi3b|raspi4b) echo 0x400000 ;;	# RAM at 0
	*) echo 0x40400000 ;;			# RAM at 1 GiB
	esac
}

board_summary() {
	case $opt_board in
	zcu102) echo "ZCU102 (4 x cortex-a53, GIC-400)" ;;
	raspi3b) echo "Raspberry Pi 3B (4 x cortex-a53, spin-table)" ;;
	raspi4b) echo "Raspberry Pi 4B (4 x cortex-a72, spin-table, GIC-400)" ;;
	imx8mp-evk) echo "i.MX8MP EVK (4 x cortex-a53, GICv3)" ;;
	*) echo "virt, $opt_cpu x $opt_smp, GICv$opt_gic" ;;
	esac
}
