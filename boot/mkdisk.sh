#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# mkdisk.sh OUT HYP IMAGE INITRAMFS BOOTARGS
#
# Build a boot disk for U-Boot without root: an MBR with one bootable FAT
# partition holding boot.scr, the hypervisor, the Linux Image and the
# initramfs. U-Boot's standard boot flow finds boot.scr on its own.
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"

[ $# -eq 5 ] || die "usage: mkdisk.sh OUT HYP IMAGE INITRAMFS BOOTARGS"
out=$1 hyp=$2 image=$3 initramfs=$4 bootargs=$5

# Load addresses: both 2 MiB aligned, as booti and Linux want them.
HYP_ADDR=0x40400000
LINUX_ADDR=0x40600000

part_offset=$((1024 * 1024))
payload=$(du -cb "$hyp" "$image" "$initramfs" | tail -n 1 | cut -f1)
size_mib=$(( (payload >> 20) + 16 ))

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

sed -e "s|@BOOTARGS@|$bootargs|" -e "s|@HYP_ADDR@|$HYP_ADDR|" \
    -e "s|@LINUX_ADDR@|$LINUX_ADDR|" \
    "$HYPTRACE_TOP/boot/uboot/boot.cmd" >"$tmp/boot.cmd"
mkimage -A arm64 -O linux -T script -C none -n "hyptrace boot" \
	-d "$tmp/boot.cmd" "$tmp/boot.scr" >/dev/null

rm -f "$out.tmp"
truncate -s "${size_mib}M" "$out.tmp"
echo "start=2048, type=c, bootable" | sfdisk -q "$out.tmp"
mformat -i "$out.tmp@@$part_offset" -v HYPTRACE ::
mcopy -i "$out.tmp@@$part_offset" "$tmp/boot.scr" ::boot.scr
mcopy -i "$out.tmp@@$part_offset" "$hyp" ::hyptrace.bin
mcopy -i "$out.tmp@@$part_offset" "$image" ::Image
mcopy -i "$out.tmp@@$part_offset" "$initramfs" ::initramfs.cpio.gz
mv "$out.tmp" "$out"
