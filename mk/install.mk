# SPDX-License-Identifier: GPL-2.0
#
# Installing hyptrace, and its Debian packages (included by the Makefile):
#
#   make install [PREFIX=/usr/local] [DESTDIR=]
#	the tool (PREFIX/bin/hyptrace), its man pages (PREFIX/share/man:
#	whatever 'make doc' renders into $(BUILD)/doc/man), the hypervisor
#	image (PREFIX/lib/hyptrace/hyptrace.bin) and an example U-Boot
#	script: boot.scr, its source boot.cmd and the hyptrace.env it reads
#	(PREFIX/share/hyptrace/boot/, see boot/README.md)
#   make install-dkms [DESTDIR=]
#	hyptrace.ko's sources with a dkms.conf in /usr/src/hyptrace-VERSION,
#	for 'dkms install hyptrace/VERSION' on the board
#   make uninstall [PREFIX=] [DESTDIR=], make uninstall-dkms [DESTDIR=]
#   make deb	Debian packages into $(BUILD)/deb with dpkg-buildpackage
#	(scripts/make-deb.sh): hyptrace for each of DEB_ARCHS, hyptrace-dkms
#	and hyptrace-hypervisor
#
# Unlike 'make', these steps install nothing on the machine and build no
# kernel: the tool and the hypervisor are built directly, so that a
# package build (packaging/debian/rules) can run them too. The hypervisor
# takes libfdt from LIBFDT_DIR when it is set, else from the kernel source
# as 'make hyp' does.

PREFIX		?= /usr/local
BINDIR		?= $(PREFIX)/bin
MANDIR		?= $(PREFIX)/share/man
HYPDIR		?= $(PREFIX)/lib/hyptrace
BOOTDIR		?= $(PREFIX)/share/hyptrace/boot
DKMSDIR		?= /usr/src
INSTALL		?= install

# The version is the Debian changelog's (scripts/version.sh), so that
# 'make install-dkms' and the package put the sources in the same
# /usr/src/hyptrace-VERSION.
HYPTRACE_VERSION := $(or $(shell sh $(CURDIR)/scripts/version.sh),\
	$(error no version: scripts/version.sh says why))
DKMS_SRC	:= $(DKMSDIR)/hyptrace-$(HYPTRACE_VERSION)

# The tool for this machine, or with TOOL_CROSS_COMPILE for another one;
# TOOL_CFLAGS, TOOL_CPPFLAGS and TOOL_LDFLAGS go to its compiler only (a
# package build's hardening flags), through the environment, where its
# Makefile adds its own to them.
TOOL_CROSS_COMPILE ?=
TOOL_BUILD	?= $(BUILD)/tools/$(or $(TOOL_CROSS_COMPILE:-=),native)
HYP_CROSS_COMPILE ?= $(CROSS_COMPILE)
LIBFDT_DIR	?=
TOOL_ENV	:= $(if $(TOOL_CFLAGS),CFLAGS='$(TOOL_CFLAGS)') \
		   $(if $(TOOL_CPPFLAGS),CPPFLAGS='$(TOOL_CPPFLAGS)') \
		   $(if $(TOOL_LDFLAGS),LDFLAGS='$(TOOL_LDFLAGS)')

.PHONY: install install-tool install-man install-hyp install-dkms \
	install-dkms-src install-build-tool install-build-hyp uninstall \
	uninstall-dkms deb

install: install-tool install-man install-hyp

install-build-tool:
	@env $(TOOL_ENV) $(MAKE) -s -C tools/hyptrace BUILD=$(TOOL_BUILD) \
		CROSS_COMPILE=$(TOOL_CROSS_COMPILE)

install-build-hyp: $(BUILD)/boot/boot.scr
ifneq ($(LIBFDT_DIR),)
	@$(MAKE) -s -C hyp BUILD=$(BUILD)/hyp CROSS_COMPILE=$(HYP_CROSS_COMPILE) \
		LIBFDT_DIR=$(LIBFDT_DIR)
else
	$(call build-hyp,hyp)
endif

# The example boot script; mkimage stamps it with SOURCE_DATE_EPOCH when a
# package build sets it.
$(BUILD)/boot/boot.scr: boot/uboot/boot.cmd
	@mkdir -p $(@D)
	@mkimage -A arm64 -O linux -T script -C none -n "hyptrace boot" \
		-d $< $@ >/dev/null

install-tool: install-build-tool
	$(INSTALL) -d $(DESTDIR)$(BINDIR)
	$(INSTALL) -m 755 $(TOOL_BUILD)/hyptrace $(DESTDIR)$(BINDIR)/hyptrace

# Every page 'make doc' rendered, by its section, of the sections in
# MAN_SECTIONS (the packages split them: hyptrace.ko(4) goes with the
# module), less MAN_SKIP: qemu-run.sh stays in the work tree. A tree
# without Documentation/man has no 'doc' and installs none.
MAN_SECTIONS	?= 1 2 3 4 5 6 7 8 9
MAN_SKIP	?= qemu-run.sh.1
install-man: $(if $(wildcard Documentation/man),doc)
	@set -e; n=0; for f in $(BUILD)/doc/man/*.[1-9]; do \
		[ -f "$$f" ] || continue; \
		case " $(MAN_SECTIONS) " in *" $${f##*.} "*) ;; *) continue ;; esac; \
		case " $(MAN_SKIP) " in *" $${f##*/} "*) continue ;; esac; \
		d=$(DESTDIR)$(MANDIR)/man$${f##*.}; \
		$(INSTALL) -d "$$d"; $(INSTALL) -m 644 "$$f" "$$d/"; \
		n=$$((n + 1)); \
	done; echo "  MAN     $$n pages into $(DESTDIR)$(MANDIR)"

install-hyp: install-build-hyp
	$(INSTALL) -d $(DESTDIR)$(HYPDIR) $(DESTDIR)$(BOOTDIR)
	$(INSTALL) -m 644 $(BUILD)/hyp/hyptrace.bin $(DESTDIR)$(HYPDIR)/
	$(INSTALL) -m 644 boot/uboot/boot.cmd $(BUILD)/boot/boot.scr \
		$(DESTDIR)$(BOOTDIR)/
	$(INSTALL) -m 644 boot/uboot/hyptrace.env.example \
		$(DESTDIR)$(BOOTDIR)/hyptrace.env

# The module's sources in the project's layout: its Kbuild reaches the
# shared headers as ../shared. Not what a build left there (modpost's
# hyptrace.mod.c, once 'make' has built the module in the tree).
DKMS_MOD_SRCS	= $(filter-out %.mod.c,$(wildcard host-driver/*.[ch]))
install-dkms-src:
	$(INSTALL) -d $(DESTDIR)$(DKMS_SRC)/host-driver $(DESTDIR)$(DKMS_SRC)/shared
	$(INSTALL) -m 644 host-driver/Kbuild host-driver/Makefile \
		$(DKMS_MOD_SRCS) $(DESTDIR)$(DKMS_SRC)/host-driver/
	$(INSTALL) -m 644 $(wildcard shared/*.[ch]) $(DESTDIR)$(DKMS_SRC)/shared/

install-dkms: install-dkms-src
	sed 's/#MODULE_VERSION#/$(HYPTRACE_VERSION)/' packaging/dkms.conf \
		>$(DESTDIR)$(DKMS_SRC)/dkms.conf

uninstall-dkms:
	rm -rf $(DESTDIR)$(DKMS_SRC)

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/hyptrace $(DESTDIR)$(HYPDIR)/hyptrace.bin
	rm -f $(addprefix $(DESTDIR)$(BOOTDIR)/,boot.cmd boot.scr hyptrace.env)
	-rmdir $(DESTDIR)$(HYPDIR) $(DESTDIR)$(BOOTDIR) \
		$(DESTDIR)$(PREFIX)/share/hyptrace 2>/dev/null
	@set -e; for f in $(BUILD)/doc/man/*.[1-9]; do \
		[ -f "$$f" ] || continue; \
		rm -f $(DESTDIR)$(MANDIR)/man$${f##*.}/$${f##*/}; \
	done

# Needs the kernel source for libfdt, which goes into the source package.
DEB_OUT		?= $(BUILD)/deb
deb:
	@bash scripts/build-kernel.sh --source
	@. $(BUILD)/kernel-src.env && DEB_OUT=$(DEB_OUT) DEB_ARCHS='$(DEB_ARCHS)' \
		LIBFDT_SRC=$$KERNEL_SRC/scripts/dtc/libfdt bash scripts/make-deb.sh
