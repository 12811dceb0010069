#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the guest kernel (Image and modules) from Debian's linux-source-7.N
# package. The source and the build live in the cache, keyed by the package
# version and a hash of the configuration fragment and this script, so a second
# run, or a fresh clone on the same machine, reuses them.
#
# HYPTRACE_KCONFIG_EXTRA names a second fragment merged on top of
# boot/kernel.config (make kasan: boot/kasan.config); the result is cached
# under a key of its own, and without it the key is the one it always was.
#
# Writes $HYPTRACE_BUILD/kernel-src.env (KERNEL_SRC) and
# $HYPTRACE_BUILD/kernel.env with KERNEL_SRC, KERNEL_BUILD, KERNEL_VERSION
# and KERNEL_IMAGE for the Makefile and the run script.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

tarball=$(ls /usr/src/linux-source-7.*.tar.xz 2>/dev/null | sort -V | tail -n 1)
[ -n "$tarball" ] || die "no /usr/src/linux-source-7.N.tar.xz: run scripts/setup-deps.sh"
pkg=$(basename "$tarball" .tar.xz)
pkgver=$(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null || echo unknown)

src=$HYPTRACE_CACHE/src/$pkg-$pkgver
if [ ! -f "$src/.extracted" ]; then
	step "extracting $pkg $pkgver into $src"
	rm -rf "$src" && mkdir -p "$src"
	run_logged "$HYPTRACE_CACHE/logs/extract-$pkg.log" \
		tar -xf "$tarball" -C "$src" --strip-components=1
	touch "$src/.extracted"
fi

mkdir -p "$HYPTRACE_BUILD"
echo "KERNEL_SRC=$src" >"$HYPTRACE_BUILD/kernel-src.env"
# --source: only make the source tree available (the hypervisor compiles
# libfdt from it), without building the kernel.
[ "${1:-}" = --source ] && exit 0

fragment=$HYPTRACE_TOP/boot/kernel.config
extra=${HYPTRACE_KCONFIG_EXTRA:-}
if [ -n "$extra" ]; then
	[ -f "$extra" ] || die "HYPTRACE_KCONFIG_EXTRA: $extra is not a file"
	extra=$(realpath "$extra")	# merge_config.sh runs in $out
fi
fragments=("$fragment" ${extra:+"$extra"})
# Bump when the way the kernel is configured or built changes.
recipe=1
key=$( (cat "${fragments[@]}"; echo "recipe=$recipe") | sha256sum | cut -c1-12)
out=$HYPTRACE_CACHE/kbuild/$pkg-$pkgver-$key
kmake=(make -C "$src" O="$out" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-)

if [ ! -f "$out/.hyptrace-built" ]; then
	mkdir -p "$out"
	step "configuring the guest kernel ($pkg $pkgver, config $key${extra:+, with $(basename "$extra")})"
	"${kmake[@]}" -s tinyconfig >/dev/null
	(cd "$out" && KCONFIG_CONFIG=.config \
		"$src/scripts/kconfig/merge_config.sh" -m -O "$out" .config "${fragments[@]}" >/dev/null)
	"${kmake[@]}" -s olddefconfig >/dev/null
	# Every line of the fragment must have survived: a silently dropped
	# option would give a kernel that boots but cannot run the tests.
	while IFS= read -r line; do
		case "$line" in CONFIG_*) grep -qx "$line" "$out/.config" ||
			die "kernel config lost '$line' (see $out/.config)";;
		esac
	done < <(cat "${fragments[@]}")
	if [ -z "$extra" ]; then
		step "building the guest kernel: Image and modules (about 9 minutes on 2 cores)"
	else
		step "building the guest kernel with $(basename "$extra"): Image and modules (longer than the normal one)"
	fi
	run_logged "$out/build.log" "${kmake[@]}" -j"$(($(nproc) + 1))" Image modules
	touch "$out/.hyptrace-built"
else
	note "guest kernel: cached build $out"
fi

release=$(cat "$out/include/config/kernel.release")
mkdir -p "$HYPTRACE_BUILD"
cat >"$HYPTRACE_BUILD/kernel.env.tmp" <<EOV
KERNEL_SRC=$src
KERNEL_BUILD=$out
KERNEL_VERSION=$release
KERNEL_PACKAGE="$pkg $pkgver"
KERNEL_IMAGE=$out/arch/arm64/boot/Image
EOV
mv "$HYPTRACE_BUILD/kernel.env.tmp" "$HYPTRACE_BUILD/kernel.env"
note "guest kernel $release ready: $out/arch/arm64/boot/Image"
