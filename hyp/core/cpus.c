// SPDX-License-Identifier: GPL-2.0
/*
 * The CPU table every file reads, in a file that calls nothing, so that
 * reading it does not make a file depend on the bring-up that fills it
 * (setup.c; scripts/check-circles.sh).
 */
#include "cpus.h"
#include "hyp_layout.h"
#include "sysregs.h"
#include "shared/hyptrace_abi.h"

/*
 * Not in the image: 4.7 KiB of bss there was a page of the image's budget
 * (linker/hyp.lds), and the region has room
 */
struct hyp_cpu *hyp_cpus;
struct hyp_stacks hyp_stacks;
struct hyp_entries hyp_entries;

int hyp_cpu_index(u64 mpidr)
{
	unsigned int i;

	mpidr &= MPIDR_HWID_MASK;
	for (i = 0; i < hyp_layout.nr_cpus; i++)
		if (hyp_cpus[i].mpidr == mpidr)
			return i;
	return -1;
}

/* HYPTRACE_CALL_CPU_MPIDR: which CPU a number names */
s64 hyp_cpu_mpidr(u64 idx, u64 *mpidr)
{
	if (idx >= hyp_layout.nr_cpus)
		return HYPTRACE_RET_INVALID;
	*mpidr = hyp_cpus[idx].mpidr;
	return HYPTRACE_RET_SUCCESS;
}
