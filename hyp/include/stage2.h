/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host's stage 2: built at boot (stage2.c), changed after boot
 * (stage2_change.c), the map both work on (stage2_map.c)
 */
#ifndef HYP_STAGE2_H
#define HYP_STAGE2_H

#include "pgtable.h"
#include "types.h"

/* What an IPA range becomes: stage2.c's attributes, or nothing */
enum stage2_kind {
	STAGE2_ABSENT,		/* EL1 gets a synchronous external abort */
	STAGE2_RAM,		/* Normal write-back, executable */
	STAGE2_MMIO,		/* Normal write-back, execute-never: stage 1 decides */
};

/* stage2.c; HYP_STAGE2=0 builds without it, the baseline `make bench` uses */
#ifndef HYP_STAGE2
#define HYP_STAGE2 1
#endif
/* Boot CPU, MMU off: the map; then every CPU turns it on for itself */
void stage2_build(void);
void stage2_enable(void);
/* The IPA of a stage-2 abort at the virtual address @far */
u64 stage2_fault_ipa(u64 far);

/* stage2_map.c: the host's map, and the attributes of each kind */
extern struct pgtable stage2_host_map;
u64 stage2_attrs(enum stage2_kind kind);

/* Whether @ipa is in a debug window stage 2 keeps from EL1 */
bool stage2_in_debug_window(u64 ipa);

/* At boot, MMU off: the tables stage2_change() splits blocks with */
void stage2_change_init(void);

/*
 * Make [@ipa, @ipa + @size) (page-aligned) @kind, on a live stage 2 that
 * every CPU may be using: break-before-make, the TLBs of every CPU
 * invalidated. Blocks are split as needed. 0, or HYPTRACE_RET_NO_MEMORY
 * when no spare table is left for a split (nothing changed then past the
 * pages done), HYPTRACE_RET_INVALID for a range outside stage 2.
 */
s64 stage2_change(u64 ipa, u64 size, enum stage2_kind kind);

/*
 * A stage-2 fault at @ipa: true if stage 2 maps it now (a change was
 * under way), so that the access is simply retried
 */
bool stage2_fault_retry(u64 ipa);
/*
 * Whether stage 2 gives the host @ipa as RAM (mapped and executable, which
 * only RAM is): memory the hypervisor may map cacheable to read
 */
bool stage2_host_ram(u64 ipa);

#endif /* HYP_STAGE2_H */
