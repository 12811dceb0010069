// SPDX-License-Identifier: GPL-2.0
/*
 * The CPUs of /cpus: the numbers Linux gives them, how each is started
 * (its enable-method), and the /cpus Linux gets when the hypervisor starts
 * spin-table CPUs itself.
 *
 * A board whose firmware has no PSCI (no /psci node: the Raspberry Pi's
 * own armstub) parks its secondaries in a spin table. Linux would release
 * them itself, straight into Linux at EL2 and outside stage 2. Instead the
 * hypervisor releases them (spin_table.c) and answers PSCI for them
 * (psci_local.c): Linux's copy of the tree says enable-method "psci" for
 * every CPU, with a /psci node whose conduit is HVC, as Xen gives its
 * Linux (make_cpus_node, make_psci_node). A board whose firmware has PSCI
 * (a /psci node: TF-A, QEMU) keeps the relay (psci_relay.c).
 *
 * dt_parse_cpus() runs on the boot CPU with the MMU off, dt_cpu_for_psci()
 * with it on.
 */
#include <libfdt.h>
#include "cpus.h"
#include "dt.h"
#include "dt_addr.h"
#include "dt_tree.h"
#include "hyp_layout.h"
#include "layout.h"
#include "mem_ranges.h"
#include "panic.h"
#include "spin_table.h"
#include "sysregs.h"
#include "shared/hyptrace_abi.h"

/* /cpus in the loader's tree */
static int cpus_node = -1;

/* An entry of /cpus, as Linux's of_get_next_cpu_node() picks them */
static bool is_cpu_node(int node)
{
	const char *type = dt_tree_getprop(node, "device_type", NULL);
	const char *name = dt_tree_name(node);
	const char *status = dt_tree_getprop(node, "status", NULL);

	if (status && !strncmp(status, "fail", 4))
		return false;
	return (type && !strncmp(type, "cpu", 4)) ||
	       (name && !strncmp(name, "cpu", 3) &&
		(name[3] == '\0' || name[3] == '@'));
}

static bool mpidr_known(u64 mpidr)
{
	unsigned int i;

	for (i = 0; i < hyp_layout.nr_cpus; i++)
		if (hyp_cpus[i].mpidr == mpidr)
			return true;
	return false;
}

/*
 * A spin-table CPU's cpu-release-addr (booting.rst: 64 bits, the CPU
 * polls it), or 0 if @node has none the hypervisor can write: it must be
 * aligned and in RAM, outside the hypervisor's region.
 */
static u64 release_addr(int node)
{
	const char *method = dt_tree_getprop(node, "enable-method", NULL);
	const fdt32_t *p;
	unsigned int i;
	int len;
	u64 addr;

	if (!method || strncmp(method, "spin-table", 11))
		return 0;
	p = dt_tree_getprop(node, "cpu-release-addr", &len);
	if (!p || len != 8)
		return 0;
	addr = dt_read_cells(p, 2);
	if (addr % 8 ||
	    ranges_overlap(addr, 8, hyp_layout.hyp_base, HYP_REGION_SIZE))
		return 0;
	for (i = 0; i < hyp_layout.nr_mem; i++)
		if (ranges_overlap(addr, 8, hyp_layout.mem[i].base,
				   hyp_layout.mem[i].size))
			return addr;
	return 0;
}

/*
 * CPU numbers are Linux's, so that a number in the ABI and in tracefs means
 * the same CPU to both: as arm64's of_parse_and_init_cpus() does, the boot
 * CPU (this one) is 0 and the other /cpus entries follow in device-tree
 * order. An entry whose reg is no MPIDR, or repeats one, still takes a
 * number there (Linux never starts it); it takes one here too, as
 * HYPTRACE_MPIDR_NONE, so that the CPUs after it keep agreeing.
 */
void dt_parse_cpus(void)
{
	u64 boot_mpidr = read_sysreg(mpidr_el1) & MPIDR_HWID_MASK;
	int cpus = dt_tree_path("/cpus");
	bool boot_found = false, spin = false;
	int ac, node, len;

	if (cpus < 0)
		hyp_panic("no /cpus node in the device tree");
	cpus_node = cpus;
	ac = dt_tree_address_cells(cpus);
	hyp_cpus[0].idx = 0;
	hyp_cpus[0].mpidr = boot_mpidr;
	hyp_layout.nr_cpus = 1;
	dt_tree_for_each_child(node, cpus) {
		const fdt32_t *reg = dt_tree_getprop(node, "reg", &len);
		struct hyp_cpu *cpu = &hyp_cpus[hyp_layout.nr_cpus];
		u64 mpidr = HYPTRACE_MPIDR_NONE;

		if (!is_cpu_node(node))
			continue;
		if (reg && len >= ac * 4)
			mpidr = dt_read_cells(reg, ac);
		if (mpidr == boot_mpidr && !boot_found) {
			boot_found = true;
			continue;
		}
		if (mpidr & ~MPIDR_HWID_MASK || mpidr_known(mpidr))
			mpidr = HYPTRACE_MPIDR_NONE;
		if (hyp_layout.nr_cpus == HYP_MAX_CPUS)
			hyp_panic("more than %u CPUs in the device tree",
				  HYP_MAX_CPUS);
		cpu->idx = hyp_layout.nr_cpus++;
		cpu->mpidr = mpidr;
		if (mpidr != HYPTRACE_MPIDR_NONE)
			cpu->release_addr = release_addr(node);
		spin |= cpu->release_addr != 0;
	}
	if (!boot_found)
		hyp_panic("boot CPU (MPIDR 0x%lx) is not in /cpus", boot_mpidr);
	/*
	 * No /psci: no firmware to call (on the Pi, SMC is UNDEFINED), and
	 * if a CPU waits in a spin table, PSCI is the hypervisor's to give.
	 */
	hyp_no_firmware = dt_tree_path("/psci") < 0;
	hyp_layout.psci_local = hyp_no_firmware && spin;
}

/*
 * With the hypervisor's own PSCI (dt_copy.c): each CPU of /cpus, as
 * Linux picks them, says enable-method "psci" and loses its
 * cpu-release-addr, and a /psci node says to call by HVC. The spin
 * table's pages stay reserved (booting.rst asks the loader to reserve
 * them; a /memreserve/ is added in case it did not, which Linux merges
 * with any it already has).
 */
bool dt_cpu_for_psci(int node)
{
	return dt_tree_parent(node) == cpus_node && is_cpu_node(node);
}
