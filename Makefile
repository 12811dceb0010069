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
#   make kasan      the scribbler, the fuzzer and two tracing tests under a
#                   guest kernel with KASAN and lockdep (tests/kasan.sh),
#                   built into build/kasan; fails on any report
#   make check-style  checkpatch over the C sources
#   make doc        the man pages (Documentation/man/*.adoc) into
#                   $(BUILD)/doc/man/, with asciidoctor; make doc-html also
#                   puts them as HTML into $(BUILD)/doc/html/
#   make doc-picture  the README's pictures from a new recording in QEMU
#   make check-doc  the man pages against the tool's --help, the ABI page
#                   against shared/hyptrace_abi.h, the links (make test
#                   runs it)
#   make fuzz       every fuzz target (FUZZ_TARGETS) for FUZZ_TIME seconds
#                   each (default 60); host only, no guest build
#   make install    the tool, its man pages, the hypervisor image and an
#                   example boot.scr (PREFIX, DESTDIR; mk/install.mk);
#                   make install-dkms: hyptrace.ko's sources for DKMS
#   make deb        Debian packages into build/deb (scripts/make-deb.sh)
#
# Long steps print progress; the kernel build is cached outside the tree
# (HYPTRACE_CACHE, default ~/.cache/hyptrace).

BUILD		?= $(CURDIR)/build
export HYPTRACE_BUILD := $(BUILD)

CROSS_COMPILE	?= aarch64-linux-gnu-
KENV		:= $(BUILD)/kernel.env

# Where kbuild builds hyptrace.ko and the test modules: in their source
# directories when empty. make kasan builds them for its own kernel in a
# copy of their sources under its build directory (kbuild's MO= refuses a
# source directory that holds an in-tree build), leaving the normal ones
# alone; boot/mkinitramfs.sh takes them from there.
MODULES_OUT	?=
MODULES_TOP	:= $(or $(MODULES_OUT),$(CURDIR))
export HYPTRACE_MODULES_OUT := $(MODULES_OUT)

.PHONY: all deps kernel hyp modules host-driver initramfs guest host-tools tools run \
	test test-unit test-boot \
	bench bench-build hyp-nosites bench-module kasan kasan-build modules-src \
	check-style fuzz doc doc-html doc-tool doc-picture check-doc clean FORCE

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

# MODULES_OUT's copy of the module sources, with the layout their Kbuild
# files expect (../shared) and without an in-tree build's products, which
# kbuild would take for its own. tar keeps the times, so that kbuild
# rebuilds only what changed.
modules-src:
ifneq ($(MODULES_OUT),)
	@mkdir -p $(MODULES_OUT)
	@tar -c --exclude='*.o' --exclude='*.ko' --exclude='*.mod' \
		--exclude='*.mod.c' --exclude='.*.cmd' --exclude='modules.order' \
		--exclude='Module.symvers' host-driver tests/modules shared | \
		tar -C $(MODULES_OUT) -x
endif

# Out-of-tree test modules, built against the cached guest kernel.
modules: kernel modules-src
	@. $(KENV) && $(MAKE) -s -C $$KERNEL_SRC O=$$KERNEL_BUILD \
		M=$(MODULES_TOP)/tests/modules ARCH=arm64 \
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
host-driver: kernel modules-src
	@. $(KENV) && $(MAKE) -s -C $$KERNEL_SRC O=$$KERNEL_BUILD \
		M=$(MODULES_TOP)/host-driver ARCH=arm64 \
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

# doc after all: on a fresh machine deps installs asciidoctor first
test: all bench-build
	@$(MAKE) --no-print-directory doc
	@bash tests/run-all.sh

# The man pages: Documentation/man/NAME.SECTION.adoc -> $(BUILD)/doc/man/
# NAME.SECTION (troff) and, for doc-html, $(BUILD)/doc/html/NAME.SECTION.html.
# A warning from asciidoctor (a broken table, an unknown attribute) fails.
MAN_SRCS	:= $(wildcard Documentation/man/*.adoc)
MAN_PAGES	:= $(patsubst Documentation/man/%.adoc,$(BUILD)/doc/man/%,$(MAN_SRCS))
MAN_HTML	:= $(patsubst Documentation/man/%.adoc,$(BUILD)/doc/html/%.html,$(MAN_SRCS))
ASCIIDOCTOR	:= asciidoctor --failure-level=WARN -a mansource=hyptrace \
		   -a manmanual='hyptrace manual'

doc: $(MAN_PAGES)
doc-html: doc $(MAN_HTML)

# Not deps: a package build renders the pages too, and must not install
# packages or fetch a kernel; make test has run deps by then.
$(MAN_PAGES) $(MAN_HTML): | doc-tool
doc-tool:
	@command -v asciidoctor >/dev/null || { echo "make doc: no asciidoctor;" \
		"'make deps' (or apt-get install asciidoctor) installs it" >&2; exit 1; }
$(BUILD)/doc/man/%: Documentation/man/%.adoc
	@mkdir -p $(@D)
	@$(ASCIIDOCTOR) -b manpage -o $@ $<

$(BUILD)/doc/html/%.html: Documentation/man/%.adoc
	@mkdir -p $(@D)
	@$(ASCIIDOCTOR) -b html5 -o $@ $<

check-doc: tools doc
	@bash scripts/check-doc.sh

doc-picture: all
	@bash scripts/setup-deps.sh --doc-picture
	@bash scripts/doc-picture.sh

# The benchmark's parts: the hypervisor with its trace sites compiled out
# (the baseline for the cost of a disabled site), the null-hypercall module,
# the guest program and a host helper.
BENCH_DIR := $(BUILD)/bench
bench-build: all hyp-nosites hyp-nostage2 bench-module $(BENCH_DIR)/hyptrace-bench \
	$(BENCH_DIR)/cpustate-bench $(BENCH_DIR)/carveout_use

hyp-nosites: deps
	$(call build-hyp,hyp-nosites,HYP_TRACE_SITES=0)

hyp-nostage2: deps
	$(call build-hyp,hyp-nostage2,HYP_STAGE2=0)

bench-module: kernel
	@. $(KENV) && $(MAKE) -s -C $$KERNEL_SRC O=$$KERNEL_BUILD \
		M=$(CURDIR)/bench/module ARCH=arm64 \
		CROSS_COMPILE=$(CROSS_COMPILE) modules

BENCH_GUEST_SRCS := $(wildcard bench/guest/hyptrace_bench/*.c)
$(BENCH_DIR)/hyptrace-bench: $(BENCH_GUEST_SRCS) \
	bench/guest/hyptrace_bench/bench.h | deps
	@mkdir -p $(@D)
	$(CROSS_COMPILE)gcc -static -O2 -Wall -Wextra -Werror -o $@ \
		$(BENCH_GUEST_SRCS)

$(BENCH_DIR)/cpustate-bench: bench/guest/cpustate_bench.c | deps
	@mkdir -p $(@D)
	$(CROSS_COMPILE)gcc -static -O2 -Wall -Wextra -Werror -o $@ $<

$(BENCH_DIR)/carveout_use: bench/host/carveout_use.c shared/trace_desc.h \
	shared/ring_buffer.h
	@mkdir -p $(@D)
	gcc -O2 -Wall -Wextra -Werror -o $@ $<

bench: bench-build
	@bash bench/run.sh $(BENCH_ARGS)

# A second guest kernel, boot/kernel.config plus boot/kasan.config (cached
# under its own key), and everything 'make all' builds, against it, in a
# build directory of its own; then the tests under it (tests/kasan.sh).
KASAN_BUILD := $(BUILD)/kasan
kasan-build:
	@HYPTRACE_KCONFIG_EXTRA=$(CURDIR)/boot/kasan.config \
		$(MAKE) --no-print-directory all BUILD=$(KASAN_BUILD) \
		MODULES_OUT=$(KASAN_BUILD)/modules

kasan: kasan-build
	@HYPTRACE_BUILD=$(KASAN_BUILD) bash tests/kasan.sh

# The fuzz targets, DIRECTORY/MAKE-TARGET, one a line; each takes
# FUZZ_TIME. make test runs each of them briefly in its directory's tests.
FUZZ_TIME ?= 60
FUZZ_TARGETS += tests/tools/fuzz-tracedat
FUZZ_TARGETS += tests/tools/fuzz-listen
FUZZ_TARGETS += tests/tools/fuzz-agentctl
FUZZ_TARGETS += tests/ringbuf/fuzz
FUZZ_TARGETS += tests/ringbuf/fuzz-page

# Each directory's build, as tests/run-all.sh has it (its corpora grow)
FUZZ_BUILD.tests/tools		:= $(BUILD)/tools-tests
FUZZ_BUILD.tests/ringbuf	:= $(BUILD)/ringbuf

# All of them, even after one fails; then the ones that failed, if any
fuzz: deps
	@failed=; \
	$(foreach t,$(FUZZ_TARGETS),echo "==> $(t): $(FUZZ_TIME) s"; \
		$(MAKE) --no-print-directory -C $(dir $(t)) $(notdir $(t)) \
		FUZZ_TIME=$(FUZZ_TIME) \
		BUILD=$(FUZZ_BUILD.$(patsubst %/,%,$(dir $(t)))) || \
		failed="$$failed $(t)";) \
	if [ -n "$$failed" ]; then echo "fuzz: failed:$$failed"; exit 1; fi; \
	echo "fuzz: $(words $(FUZZ_TARGETS)) targets, $(FUZZ_TIME) s each, no crash"

# checkpatch message types that, in this tree, only ever misfire; each is
# ignored only while no true positive of it is left:
#  COMPLEX_MACRO, MACRO_ARG_UNUSED, MULTISTATEMENT_MACRO_USE_DO_WHILE,
#  TRAILING_SEMICOLON: the X-macro event table (shared/hyp_events.h) and
#	its users. A row or column macro expands to a struct member, an
#	enumerator, an initialiser, statements or a term of a sum, placed
#	next to its siblings with nothing between them: it cannot be
#	parenthesised, it carries its own ';' or ',', and it takes a whole
#	row while using only the columns it needs.
#  VOLATILE: a flag a signal handler sets is volatile sig_atomic_t, as C
#	requires; the hypervisor's READ_ONCE()/WRITE_ONCE() are built on
#	volatile, as the kernel's are.
#  EMBEDDED_FUNCTION_NAME: the tools' usage() texts say "usage:" to the
#	user; that is the word, not the function's name.
#  LINUX_VERSION_CODE: host-driver/ is an out-of-tree module built against
#	several stock kernels; compat.h tests the version where a function,
#	rather than a header, changed.
#  CONSTANT_COMPARISON: checkpatch takes any upper-case name for a
#	variable; the comparisons it flags are of two constants
#	(LINUX_VERSION_CODE >= KERNEL_VERSION(...), a _Static_assert).
#  PREFER_DEFINED_ATTRIBUTE_MACRO: what it flags are the definitions of
#	__printf() and the others, for code without the kernel's headers
#	(the hypervisor's types.h, the tools' include/hyptrace/compiler.h, bench/).
CHECKPATCH_IGNORE := COMPLEX_MACRO MACRO_ARG_UNUSED \
	MULTISTATEMENT_MACRO_USE_DO_WHILE TRAILING_SEMICOLON VOLATILE \
	EMBEDDED_FUNCTION_NAME LINUX_VERSION_CODE CONSTANT_COMPARISON \
	PREFER_DEFINED_ATTRIBUTE_MACRO

check-style: kernel
	@. $(KENV) && git ls-files '*.c' '*.h' | grep -v '^tests/' | \
		xargs perl $$KERNEL_SRC/scripts/checkpatch.pl --no-tree --terse \
		$(addprefix --ignore ,$(CHECKPATCH_IGNORE)) -f
	@echo "check-style: checkpatch found nothing in $$(git ls-files '*.c' '*.h' | grep -vc '^tests/') C files"

# make install, make deb
include mk/install.mk

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
