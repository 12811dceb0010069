# hyptrace boot script for U-Boot, compiled into boot.scr with
#
#   mkimage -A arm64 -O linux -T script -C none -n "hyptrace boot" \
#           -d boot.cmd boot.scr
#
# U-Boot's standard (distro) boot runs boot.scr from the first bootable
# partition it finds it on. The script loads the hypervisor, the Linux Image
# and the initramfs from that partition, tells the hypervisor where Linux is
# through /chosen/hyptrace,kernel, and starts the hypervisor with booti,
# which passes the initramfs and the device tree the standard way.
#
# What differs between boards and runs lives in hyptrace.env next to it
# (see boot/README.md), so that this script never needs rebuilding.
#
# U-Boot 2023.01's script parser shapes the code: "exit" inside an "if" does
# not leave the script, and a command cannot go on over a second line, not
# even after "&&" or "\". So each step is one line that records a failure in
# hyptrace_failed, and the later steps check it.

echo "hyptrace-boot: running boot.scr from ${devtype} ${devnum}:${distro_bootpart}"

# Import the settings as text rather than writing them into this script:
# env import takes each value verbatim, where the script parser would
# expand the $ and split at the ; a kernel command line may contain.
setenv hyptrace_failed
setenv hyptrace_mode
if load ${devtype} ${devnum}:${distro_bootpart} ${kernel_addr_r} hyptrace.env; then
	env import -t ${kernel_addr_r} ${filesize} bootargs hyptrace_mode hyp_addr linux_addr initrd_addr dtb_file dtb_addr
fi

if test "${hyptrace_mode}" = "hypervisor"; then
	load ${devtype} ${devnum}:${distro_bootpart} ${hyp_addr} hyptrace.bin || setenv hyptrace_failed "cannot load hyptrace.bin at ${hyp_addr}"
elif test "${hyptrace_mode}" != "linux-only"; then
	setenv hyptrace_failed "hyptrace.env is missing or sets no hyptrace_mode (hypervisor or linux-only)"
fi
if test -z "${hyptrace_failed}"; then
	load ${devtype} ${devnum}:${distro_bootpart} ${linux_addr} Image || setenv hyptrace_failed "cannot load Image at ${linux_addr}"
fi
if test -z "${hyptrace_failed}"; then
	load ${devtype} ${devnum}:${distro_bootpart} ${initrd_addr} initramfs.cpio.gz || setenv hyptrace_failed "cannot load initramfs.cpio.gz at ${initrd_addr}"
	setenv initrd_size ${filesize}
fi

# The board's device tree from the partition when hyptrace.env names one
# (dtb_file), at dtb_addr or else U-Boot's fdt_addr_r; otherwise the tree
# the firmware (or QEMU) handed U-Boot, at fdt_addr. booti still adds the
# memory banks, bootargs and the initramfs to either.
if test -z "${dtb_addr}"; then
	setenv dtb_addr ${fdt_addr_r}
fi
if test -z "${hyptrace_failed}"; then
	if test -n "${dtb_file}"; then
		if test -z "${dtb_addr}"; then
			setenv hyptrace_failed "dtb_file ${dtb_file} needs dtb_addr in hyptrace.env (this U-Boot has no fdt_addr_r)"
		else
			load ${devtype} ${devnum}:${distro_bootpart} ${dtb_addr} ${dtb_file} || setenv hyptrace_failed "cannot load ${dtb_file} at ${dtb_addr}"
		fi
	fi
fi
if test -z "${hyptrace_failed}"; then
	if test -n "${dtb_file}"; then
		setenv fdt_addr ${dtb_addr}
		echo "hyptrace-boot: device tree ${dtb_file} from the partition at ${dtb_addr}"
	fi
fi

# U-Boot would otherwise move the device tree and the initramfs to the top of
# RAM, which is where the hypervisor puts its trace carve-out.
setenv fdt_high 0xffffffffffffffff
setenv initrd_high 0xffffffffffffffff

if test -n "${hyptrace_failed}"; then
	echo "hyptrace-boot: FAILED: ${hyptrace_failed}"
elif test "${hyptrace_mode}" = "linux-only"; then
	# A baseline without the hypervisor: Linux itself starts at EL2.
	echo "hyptrace-boot: booting Linux at ${linux_addr} without the hypervisor, initramfs at ${initrd_addr}"
	booti ${linux_addr} ${initrd_addr}:${initrd_size} ${fdt_addr}
	echo "hyptrace-boot: FAILED: booti ${linux_addr} returned"
else
	# Where the hypervisor enters Linux: a u64 as two cells, high word
	# first. The device tree needs room for the new property.
	fdt addr ${fdt_addr}
	fdt resize 4096
	fdt set /chosen hyptrace,kernel <0x0 ${linux_addr}>
	echo "hyptrace-boot: booting hyptrace at ${hyp_addr}, Linux at ${linux_addr}, initramfs at ${initrd_addr}"
	booti ${hyp_addr} ${initrd_addr}:${initrd_size} ${fdt_addr}
	echo "hyptrace-boot: FAILED: booti ${hyp_addr} returned"
fi
