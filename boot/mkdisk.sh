#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# mkdisk.sh OUT HYP IMAGE INITRAMFS BOOTARGS
#
# Build a boot disk for U-Boot without root: an MBR with one bootable FAT
# partition holding boot.scr (boot/uboot/boot.cmd), hyptrace.env (the
# kernel command line and the load addresses), the hypervisor, the Linux
# Image and the initramfs. U-Boot's standard boot flow finds boot.scr on
# its own. HYP "none" makes a disk that boots Linux without the hypervisor.
# boot/README.md describes the layout.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"

[ $# -eq 5 ] || die "usage: mkdisk.sh OUT HYP|none IMAGE INITRAMFS BOOTARGS"
out=$1 hyp=$2 image=$3 initramfs=$4 bootargs=$5

# The hypervisor goes where this board's U-Boot expects a kernel
# (kernel_addr_r of qemu_arm64). Linux goes 4 MiB above it rather than
# right after the hypervisor's 2 MiB: the hypervisor's fallback address
# would then find no Image, so a boot proves /chosen/hyptrace,kernel works.
HYP_ADDR=0x40400000
LINUX_ADDR=0x40800000
SZ_2M=$((2 << 20))

for tool in mkimage:u-boot-tools sfdisk:fdisk mformat:mtools mcopy:mtools; do
	command -v "${tool%%:*}" >/dev/null ||
		die "${tool%%:*} missing: install ${tool#*:} (make deps)"
done
for f in "$image" "$initramfs" "$hyp"; do
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
} >"$tmp/hyptrace.env"

part_offset=$((1024 * 1024))
payload=$(du -cb "$image" "$initramfs" | tail -n 1 | cut -f1)
size_mib=$(( (payload >> 20) + 16 ))

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
mv "$out.tmp" "$out"
