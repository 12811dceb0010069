#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot like a board (qemu-run.sh --uboot): QEMU runs Debian's U-Boot as
# firmware, U-Boot's standard boot finds boot.scr on the FAT disk built for
# the run, and the script starts the hypervisor with booti. Linux sits 4 MiB
# above the hypervisor, where only /chosen/hyptrace,kernel can point it; the
# kernel command line comes from the disk and holds characters the script
# parser would mangle. Linux must come up at EL1 on all CPUs, bring each
# secondary CPU down and up again, and find the run's own initramfs files.
# The board's tree comes from the disk (hyptrace.env's dtb_file,
# --uboot-dtb): the one QEMU gives U-Boot, dumped, compacted and marked with a /chosen
# property that Linux must see. One boot.
# shellcheck source=tests/boot/lib.sh
. "$(dirname "$0")/lib.sh"

# Not a valid parameter to anything: Linux only shows it, which is the point.
# shellcheck disable=SC2016 # a literal $, for U-Boot's parser to leave alone
APPEND='hyptrace_uboot_test="a;b $c"'

token=uboot-$$-$RANDOM
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
token_file=$work/token
echo "$token" >"$token_file"
MARK=hyptrace,test-tree	# /chosen property only the disk's tree has
"$HYPTRACE_TOP/qemu-run.sh" --no-build --quiet --uboot --dump-dtb "$work/qemu.dtb" ||
	fail "qemu-run.sh --dump-dtb failed"
# QEMU pads its tree to 1 MiB; dtc writes it compact, to fit below
# U-Boot's scriptaddr
dtc -q -I dtb -O dtb -o "$work/virt.dtb" "$work/qemu.dtb" ||
	fail "dtc cannot read QEMU's tree"
fdtput -t s "$work/virt.dtb" /chosen "$MARK" disk || fail "cannot mark the disk's tree"

# The guest side: guest/60-uboot.sh
boot uboot --uboot --uboot-dtb "$work/virt.dtb" --carveout 64M --append "$APPEND" \
	--add "$token_file:/root/uboot-token" \
	--add "$GUEST_DIR/60-uboot.sh" --cmd "sh /root/60-uboot.sh $MARK"

# U-Boot first, and loudly if it never got to the script.
expect_line '^U-Boot 20[0-9][0-9]\.' "U-Boot's banner: QEMU did not start U-Boot"
grep -q '^hyptrace-boot: running boot.scr from ' "$BOOT_LOG" ||
	fail "U-Boot did not run boot.scr from the boot disk${BOOT_MSG:+: $BOOT_MSG} (log $BOOT_LOG)"
expect_ok

expect_line '^hyptrace-boot: device tree virt.dtb from the partition at 0x40100000$' \
	"boot.scr loading the tree hyptrace.env names"
[ "$(value tree)" = disk ] ||
	fail "Linux's /chosen/$MARK is '$(value tree)', want disk: not the disk's tree"

# The script's addresses, and the hypervisor entering Linux where the
# script's /chosen property said, not at its own fallback (hyp + 2 MiB).
line=$(grep -E -m1 '^hyptrace-boot: booting hyptrace at ' "$BOOT_LOG" || true)
[ -n "$line" ] || fail "boot.scr did not start the hypervisor (log $BOOT_LOG)"
hyp=$(sed -E 's/.* hyptrace at (0x[0-9a-f]+),.*/\1/' <<<"$line")
linux=$(sed -E 's/.* Linux at (0x[0-9a-f]+),.*/\1/' <<<"$line")
[ "$((linux))" != "$((hyp + 0x200000))" ] ||
	fail "boot.scr puts Linux at hyp + 2 MiB ($linux), where the hypervisor looks anyway: /chosen/hyptrace,kernel goes untested"
expect_line "^hyptrace: entering Linux at $linux at EL1" \
	"the hypervisor must take Linux's address from /chosen/hyptrace,kernel"

# The command line from hyptrace.env, verbatim, reached Linux and the
# hypervisor (which sized the carve-out from it).
# shellcheck disable=SC2016 # a literal $ in the regex
expect_line 'Kernel command line: console=ttyAMA0 earlycon panic=-1 hyptrace\.carveout=64M hyptrace_uboot_test="a;b \$c"$'
expect_line "OF: reserved mem: .*\(2048 KiB\) nomap .*hyptrace-hyp@${hyp#0x}$"
expect_line 'OF: reserved mem: .*\(65536 KiB\) nomap .*hyptrace-trace@'

expect_line 'SMP: Total of 4 processors activated'
[ "$(value booted)" = 0-3 ] || fail "online CPUs after boot '$(value booted)', want 0-3"
[ "$(value online)" = 0-3 ] || fail "online CPUs after the hotplug cycle '$(value online)', want 0-3"
[ "$(count_lines 'psci: CPU[1-3] killed')" = 3 ] ||
	fail "$(count_lines 'psci: CPU[1-3] killed') 'psci: CPUn killed' lines, want 3"
[ "$(count_lines 'CPU[1-3]: Booted secondary processor')" = 6 ] ||
	fail "$(count_lines 'CPU[1-3]: Booted secondary processor') 'Booted secondary processor' lines, want 6 (3 at boot, 3 after hotplug)"
[ "$(value token)" = "$token" ] ||
	fail "the --add file says '$(value token)', want '$token': not this run's initramfs"
[ "$(value traced)" = 4 ] || fail "$(value traced) of 4 selftest events in the trace after U-Boot"
[ "$(value cpus)" = 0123 ] || fail "hyp_enter events from CPUs '$(value cpus)', want 0123"
[ "$(value frozen)" = yes ] || fail "events kept coming with tracing_on 0"
expect_line 'hyptrace: SYSTEM_OFF from CPU [0-9]+, memory canary intact'
expect_healthy
pass "U-Boot ran boot.scr; the device tree from the disk (dtb_file); hyptrace at $hyp entered Linux at $linux (from /chosen) at EL1; command line verbatim; 4 CPUs, hotplug of CPUs 1-3; tracing on all 4 CPUs, off stops it"
