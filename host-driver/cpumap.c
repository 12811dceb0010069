// SPDX-License-Identifier: GPL-2.0
/*
 * The CPU numbers in the hypervisor's calls and buffers must be Linux's:
 * otherwise an event shows under another CPU than the one that wrote it,
 * and a swap or a reset takes another CPU's pages than the one a user
 * named. The hypervisor numbers CPUs as arm64 Linux does (boot CPU first,
 * then /cpus order) and says which CPU each number is (CPU_MPIDR); this
 * checks, by MPIDR, that the two agree for every CPU Linux may run.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/errno.h>
#include <linux/of.h>
#include <linux/printk.h>

#include "hyptrace.h"

/*
 * Linux's MPIDR for @cpu, cpu_logical_map(@cpu). That is not exported, but
 * of_get_cpu_node() finds the /cpus entry whose reg matches it.
 */
static int linux_mpidr(unsigned int cpu, u64 *mpidr)
{
	struct device_node *np = of_get_cpu_node(cpu, NULL);
	const __be32 *reg;
	int ac, len, ret = -ENODEV;

	if (!np)
		return ret;
	ac = of_n_addr_cells(np);
	reg = of_get_property(np, "reg", &len);
	if (reg && ac > 0 && len >= ac * (int)sizeof(*reg)) {
		*mpidr = of_read_number(reg, ac);
		ret = 0;
	}
	of_node_put(np);
	return ret;
}

int hyptrace_check_cpu_map(struct hyptrace *ht)
{
	struct arm_smccc_res res;
	unsigned int cpu;
	u64 mpidr;
	int ret;

	if (ht->abi_minor < 2) {
		/* A newer minor only adds: load, but say what is unchecked. */
		pr_warn("hypervisor ABI %u.%u cannot say which CPU each number is (1.2 can): CPU numbers unchecked\n",
			HYPTRACE_ABI_MAJOR, ht->abi_minor);
		return 0;
	}
	for_each_possible_cpu(cpu) {
		if (linux_mpidr(cpu, &mpidr)) {
			pr_err("CPU %u has no /cpus entry with its MPIDR in the device tree\n",
			       cpu);
			return -ENODEV;
		}
		ret = hyptrace_call(HYPTRACE_CALL_CPU_MPIDR, cpu, 0, 0, 0,
				    &res, 0);
		if (ret)
			return ret;
		if (res.a1 != mpidr) {
			pr_err("CPU %u is MPIDR %#llx to Linux, %#lx to the hypervisor: events, swaps and resets would land on the wrong CPU\n",
			       cpu, mpidr, res.a1);
			return -EINVAL;
		}
	}
	pr_info("CPUs %*pbl: the hypervisor numbers them as Linux does (MPIDRs agree)\n",
		cpumask_pr_args(cpu_possible_mask));
	return 0;
}
