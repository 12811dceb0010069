#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# mkdisk.sh [OPTIONS] OUT HYP IMAGE INITRAMFS BOOTARGS
#
# Build a boot disk for U-Boot without root: an MBR with one bootable FAT
# partition holding boot.scr (boot/uboot/boot.cmd), hyptrace.env (the
# kernel command line and the load addresses), the hypervisor, the Linux
# Image and the initramfs. U-Boot's standard boot flow finds boot.scr on
# its own. HYP "none" makes a disk that boots Linux without the hypervisor.
# boot/README.md describes the layout. OPTIONS, for boards other than QEMU
# virt (whose addresses are the defaults):
#
#   --hyp-addr ADDR    where the hypervisor goes (default 0x40400000)
#   --linux-addr ADDR  where Linux goes (default 0x40800000)
#   --dtb FILE         put the board's device tree on the partition and
#                      name it in hyptrace.env (dtb_file): boot.scr hands
#                      it to the hypervisor instead of the firmware's
#   --dtb-addr ADDR    where boot.scr loads it (default: U-Boot's
#                      fdt_addr_r)
#   --file FILE        copy FILE onto the partition too (repeatable): a
#                      board's firmware files, e.g. the Pi's U-Boot and
#                      config.txt
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"

# The hypervisor goes where QEMU virt's U-Boot expects a kernel
# (kernel_addr_r of qemu_arm64). Linux goes 4 MiB above it rather than
# right after the hypervisor's 2 MiB: the hypervisor's fallback address
# would then find no Image, so a boot proves /chosen/hyptrace,kernel works.
HYP_ADDR=0x40400000
LINUX_ADDR=0x40800000
SZ_2M=$((2 << 20))
dtb='' dtb_addr='' files=()
while [ $# -gt 0 ]; do
	case $1 in
	--hyp-addr) HYP_ADDR=${2:?--hyp-addr needs an address}; shift ;;
	--linux-addr) LINUX_ADDR=${2:?--linux-addr needs an address}; shift ;;
	--dtb) dtb=${2:?--dtb needs a file}; shift ;;
	--dtb-addr) dtb_addr=${2:?--dtb-addr needs an address}; shift ;;
	--file) files+=("${2:?--file needs a file}"); shift ;;
	--*) die "mkdisk.sh: unknown option $1" ;;
	*) break ;;
	esac
	shift
done
[ $# -eq 5 ] || die "usage: mkdisk.sh [OPTIONS] OUT HYP|none IMAGE INITRAMFS BOOTARGS"
out=$1 hyp=$2 image=$3 initramfs=$4 bootargs=$5
for a in "$HYP_ADDR" "$LINUX_ADDR" ${dtb_addr:+"$dtb_addr"}; do
	[[ $a =~ ^0x[0-9a-fA-F]+$ ]] || die "mkdisk.sh: '$a' is not a hexadecimal address"
done

for tool in mkimage:u-boot-tools sfdisk:fdisk mformat:mtools mcopy:mtools; do
	command -v "${tool%%:*}" >/dev/null ||
		die "${tool%%:*} missing: install ${tool#*:} (make deps)"
done
for f in "$image" "$initramfs" "$hyp" ${dtb:+"$dtb"} "${files[@]+"${files[@]}"}"; do
	[ "$f" = none ] || [ -f "$f" ] || die "$f does not exist"
done
# env import reads one name=value a line and takes \ as an escape.
[[ $bootargs != *$'\n'* ]] || die "the kernel command line must be one line"

# le64/le32 at a byte offset of the Image header (booting.rst)
header() {
	od -An -t "u$2" --endian=little -j "$1" -N "$2" "$image" | tr -d ' '
}
[ "$(header 56 4)" = $((0x644d5241)) ] ||
	die "$image is not an arm64 Linux Image (no ARM\\x64 magic)"
# The initramfs right after the whole kernel, BSS included (image_size),
# so that Linux clearing its BSS cannot eat into it.
image_size=$(header 16 8)
[ "$image_size" -gt 0 ] || die "$image has no image_size in its header (Linux before 3.17?)"
image_end=$((LINUX_ADDR + image_size))
initrd_addr=$(printf '0x%x' $(( (image_end + SZ_2M - 1) & ~(SZ_2M - 1) )))

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

mkimage -A arm64 -O linux -T script -C none -n "hyptrace boot" \
	-d "$HYPTRACE_TOP/boot/uboot/boot.cmd" "$tmp/boot.scr" >"$tmp/mkimage.log" ||
	{ cat "$tmp/mkimage.log" >&2; die "mkimage failed on boot/uboot/boot.cmd"; }

{
	echo "# hyptrace boot settings, read by boot.scr (env import -t)"
	printf 'bootargs=%s\n' "${bootargs//\\/\\\\}"
	if [ "$hyp" = none ]; then
		echo "hyptrace_mode=linux-only"
	else
		echo "hyptrace_mode=hypervisor"
		echo "hyp_addr=$HYP_ADDR"
	fi
	echo "linux_addr=$LINUX_ADDR"
	echo "initrd_addr=$initrd_addr"
	[ -z "$dtb" ] || echo "dtb_file=$(basename "$dtb")"
	[ -z "$dtb" ] || [ -z "$dtb_addr" ] || echo "dtb_addr=$dtb_addr"
} >"$tmp/hyptrace.env"

part_offset=$((1024 * 1024))
payload=$(du -cb "$image" "$initramfs" "${files[@]+"${files[@]}"}" | tail -n 1 | cut -f1)
size_mib=$(( (payload >> 20) + 16 ))
# A power of two, as QEMU's SD card model wants (the file is sparse)
p2=1
while [ "$p2" -lt "$size_mib" ]; do p2=$((p2 * 2)); done
size_mib=$p2

rm -f "$out.tmp"
truncate -s "${size_mib}M" "$out.tmp"
echo "start=2048, type=c, bootable" | sfdisk -q "$out.tmp"
fat="$out.tmp@@$part_offset"
mformat -i "$fat" -v HYPTRACE ::
mcopy -i "$fat" "$tmp/boot.scr" ::boot.scr
mcopy -i "$fat" "$tmp/hyptrace.env" ::hyptrace.env
[ "$hyp" = none ] || mcopy -i "$fat" "$hyp" ::hyptrace.bin
mcopy -i "$fat" "$image" ::Image
mcopy -i "$fat" "$initramfs" ::initramfs.cpio.gz
[ -z "$dtb" ] || mcopy -i "$fat" "$dtb" "::$(basename "$dtb")"
for f in "${files[@]+"${files[@]}"}"; do
	mcopy -i "$fat" "$f" "::$(basename "$f")"
done
mv "$out.tmp" "$out"
