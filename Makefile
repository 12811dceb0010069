# SPDX-License-Identifier: GPL-2.0
#
# hyptrace: top-level build.
#
#   make            set up what is missing, build the hypervisor, the guest
#                   kernel, the host module, the test modules and the
#                   initramfs
#   make run        boot it all in QEMU (./qemu-run.sh)
#   make test       everything above, then every test
#   make bench      the benchmarks under QEMU -icount (bench/README.md);
#                   BENCH_ARGS=--smoke for a quick run that proves it works
#   make check-style  checkpatch over the C sources
#
# Long steps print progress; the kernel build is cached outside the tree
# (HYPTRACE_CACHE, default ~/.cache/hyptrace).

BUILD		?= $(CURDIR)/build
export HYPTRACE_BUILD := $(BUILD)

CROSS_COMPILE	?= aarch64-linux-gnu-
KENV		:= $(BUILD)/kernel.env

.PHONY: all deps kernel hyp modules host-driver initramfs guest host-tools tools run \
	test test-unit test-boot \
	bench bench-build hyp-nosites bench-module check-style clean FORCE

all: hyp host-driver modules tools initramfs guest host-tools

deps:
	@bash scripts/setup-deps.sh

# The kernel script decides by itself whether the cached build is current.
kernel: deps
	@bash scripts/build-kernel.sh

$(KENV): | kernel

# The hypervisor compiles libfdt from the kernel source tree.
# build-hyp DIR[, MAKE VARIABLES]: the hypervisor into $(BUILD)/DIR, libfdt
# from the kernel's source tree
define build-hyp
	@bash scripts/build-kernel.sh --source
	@. $(BUILD)/kernel-src.env && $(MAKE) -s -C hyp BUILD=$(BUILD)/$(1) $(2) \
		CROSS_COMPILE=$(CROSS_COMPILE) \
		LIBFDT_DIR=$$KERNEL_SRC/scripts/dtc/libfdt
endef

hyp: deps
	$(call build-hyp,hyp)

# Out-of-tree test modules, built against the cached guest kernel.
modules: kernel
	@. $(KENV) && $(MAKE) -s -C $$KERNEL_SRC O=$$KERNEL_BUILD \
		M=$(CURDIR)/tests/modules ARCH=arm64 \
		CROSS_COMPILE=$(CROSS_COMPILE) modules

# Static arm64 programs the tests put into the guest (qemu-run.sh --add)
GUEST_PROGS := $(patsubst tests/guest/%.c,$(BUILD)/guest/%,$(wildcard tests/guest/*.c))
guest: $(GUEST_PROGS)

$(BUILD)/guest/%: tests/guest/%.c | deps
	@mkdir -p $(@D)
	$(CROSS_COMPILE)gcc -static -O2 -Wall -Wextra -Werror -o $@ $<

# Host programs the tests use to read what the guest produced
HOST_TOOLS := $(patsubst tests/host/%.c,$(BUILD)/host/%,$(wildcard tests/host/*.c))
host-tools: $(HOST_TOOLS)

$(BUILD)/host/%: tests/host/%.c | deps
	@mkdir -p $(@D)
	gcc -O2 -Wall -Wextra -Werror -I/usr/include/traceevent -o $@ $< -ltraceevent

# The host module (hyptrace.ko), built the same way.
host-driver: kernel
	@. $(KENV) && $(MAKE) -s -C $$KERNEL_SRC O=$$KERNEL_BUILD \
		M=$(CURDIR)/host-driver ARCH=arm64 \
		CROSS_COMPILE=$(CROSS_COMPILE) modules

# hyptrace, the tool: for this machine, and static for the guest or a board
tools: deps
	@$(MAKE) -s -C tools/hyptrace BUILD=$(BUILD)/tools/native
	@$(MAKE) -s -C tools/hyptrace BUILD=$(BUILD)/tools/arm64 \
		CROSS_COMPILE=$(CROSS_COMPILE) STATIC=1

initramfs: kernel modules host-driver tools
	@bash boot/mkinitramfs.sh $(BUILD)/initramfs.cpio.gz

run: all
	./qemu-run.sh --no-build

test: all bench-build
	@bash tests/run-all.sh

# The benchmark's parts: the hypervisor with its trace sites compiled out
# (the baseline for the cost of a disabled site), the null-hypercall module,
# the guest program and a host helper.
BENCH_DIR := $(BUILD)/bench
bench-build: all hyp-nosites hyp-nostage2 bench-module $(BENCH_DIR)/hyptrace-bench \
	$(BENCH_DIR)/carveout_use

hyp-nosites: deps
	$(call build-hyp,hyp-nosites,HYP_TRACE_SITES=0)

hyp-nostage2: deps
	$(call build-hyp,hyp-nostage2,HYP_STAGE2=0)

bench-module: kernel
	@. $(KENV) && $(MAKE) -s -C $$KERNEL_SRC O=$$KERNEL_BUILD \
		M=$(CURDIR)/bench/module ARCH=arm64 \
		CROSS_COMPILE=$(CROSS_COMPILE) modules

$(BENCH_DIR)/hyptrace-bench: bench/guest/hyptrace_bench.c | deps
	@mkdir -p $(@D)
	$(CROSS_COMPILE)gcc -static -O2 -Wall -Wextra -Werror -o $@ $<

$(BENCH_DIR)/carveout_use: bench/host/carveout_use.c shared/trace_desc.h \
	shared/ring_buffer.h
	@mkdir -p $(@D)
	gcc -O2 -Wall -Wextra -Werror -o $@ $<

bench: bench-build
	@bash bench/run.sh $(BENCH_ARGS)

check-style: kernel
	@. $(KENV) && git ls-files '*.c' '*.h' | grep -v '^tests/' | \
		xargs perl $$KERNEL_SRC/scripts/checkpatch.pl --no-tree --terse -f

clean:
	$(MAKE) -s -C hyp clean BUILD=$(BUILD)/hyp
	$(MAKE) -s -C hyp clean BUILD=$(BUILD)/hyp-nosites
	$(MAKE) -s -C hyp clean BUILD=$(BUILD)/hyp-nostage2
	rm -rf $(BUILD)
	rm -f tests/modules/*.ko tests/modules/*.o tests/modules/*.mod* \
		tests/modules/modules.order tests/modules/Module.symvers \
		tests/modules/.*.cmd
	rm -f bench/module/*.ko bench/module/*.o bench/module/*.mod* \
		bench/module/modules.order bench/module/Module.symvers \
		bench/module/.*.cmd
	rm -f host-driver/*.ko host-driver/*.o host-driver/*.mod* \
		host-driver/modules.order host-driver/Module.symvers \
		host-driver/.*.cmd
