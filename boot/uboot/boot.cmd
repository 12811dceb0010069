# hyptrace boot script for U-Boot (compiled with mkimage -T script).
#
# Loads the hypervisor, the Linux Image and the initramfs from the partition
# U-Boot found this script on, tells the hypervisor where Linux is through
# /chosen/hyptrace,kernel and starts the hypervisor with booti, which passes
# the initramfs and the device tree the standard way. @NAME@ placeholders are
# filled in by boot/mkdisk.sh.

setenv bootargs "@BOOTARGS@"

# U-Boot would otherwise move the device tree and the initramfs to the top of
# RAM, which is where the hypervisor places its trace carve-out.
setenv fdt_high 0xffffffffffffffff
setenv initrd_high 0xffffffffffffffff

setenv hyp_addr @HYP_ADDR@
setenv linux_addr @LINUX_ADDR@
load ${devtype} ${devnum}:${distro_bootpart} ${hyp_addr} hyptrace.bin
load ${devtype} ${devnum}:${distro_bootpart} ${linux_addr} Image
load ${devtype} ${devnum}:${distro_bootpart} ${ramdisk_addr_r} initramfs.cpio.gz
setenv initrd_size ${filesize}

fdt addr ${fdt_addr}
fdt resize 4096
fdt set /chosen hyptrace,kernel <0x0 ${linux_addr}>
booti ${hyp_addr} ${ramdisk_addr_r}:${initrd_size} ${fdt_addr}
