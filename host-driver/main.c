// SPDX-License-Identifier: GPL-2.0
/*
 * hyptrace.ko: shows the hyptrace hypervisor's trace buffers in tracefs, at
 * /sys/kernel/tracing/remotes/hypervisor/, through the kernel's trace_remote
 * framework, as pKVM's arch/arm64/kvm/hyp_trace.c does for pKVM; on kernels
 * without trace_remote (before 7.1, and distribution configs that leave it
 * out), the same files at /sys/kernel/debug/hyptrace/ (fallback.c).
 *
 * Loading finds the hypervisor, checks that what it reports agrees with the
 * device tree and with this kernel, maps the trace carve-out and starts the
 * front end. Anything unexpected fails the load with one line saying what:
 * the module reads pages another agent writes, and guessing is how a reader
 * ends up following a bad pointer.
 *
 * There is no module_exit: trace_remote has no way to unregister a remote,
 * and it keeps pointers to our callbacks and events for good; the fallback
 * keeps the same rule, so that both behave alike.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/init.h>
#include <linux/io.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/of.h>
#include <linux/of_reserved_mem.h>

#include <asm/cpufeature.h>
#include <asm/sysreg.h>
#include <asm/virt.h>

#include "compat.h"
#include "frontend.h"
#include "hyptrace.h"
#include "hyp_events.h"
#include "hyptrace_version.h"
#include "last_boot.h"

static struct hyptrace hyptrace;

static void uid_bytes(u8 *uuid, unsigned long w0, unsigned long w1,
		      unsigned long w2, unsigned long w3)
{
	/* SMCCC returns a UID as four little-endian words of 32 bits */
	put_unaligned_le32(w0, uuid);
	put_unaligned_le32(w1, uuid + 4);
	put_unaligned_le32(w2, uuid + 8);
	put_unaligned_le32(w3, uuid + 12);
}

/*
 * Whether an HVC reaches a hypervisor, and whether that is hyptrace. The
 * UID is the only safe question: other hypervisors give other IDs other
 * meanings.
 */
static int find_hyptrace(void)
{
	u64 pfr0 = read_sanitised_ftr_reg(SYS_ID_AA64PFR0_EL1);
	struct arm_smccc_res res;
	u8 got[16], want[16];

	/* Without this check an HVC would trap to Linux itself, or be undefined */
	if (is_kernel_in_hyp_mode()) {
		pr_err("no hyptrace hypervisor: Linux itself runs at EL2\n");
		return -ENODEV;
	}
	if (!SYS_FIELD_GET(ID_AA64PFR0_EL1, EL2, pfr0)) {
		pr_err("no hyptrace hypervisor: the CPUs have no EL2\n");
		return -ENODEV;
	}

	arm_smccc_1_1_hvc(HYPTRACE_CALL_UID, &res);
	uid_bytes(got, res.a0, res.a1, res.a2, res.a3);
	uid_bytes(want, HYPTRACE_UID_0, HYPTRACE_UID_1, HYPTRACE_UID_2,
		  HYPTRACE_UID_3);
	if (memcmp(got, want, sizeof(got))) {
		pr_err("no hyptrace hypervisor (SMCCC vendor hyp UID %pUb, want %pUb)\n",
		       got, want);
		return -ENODEV;
	}
	return 0;
}

/* The ABI major must match; a newer minor only adds. */
static int check_version(struct hyptrace *ht)
{
	struct arm_smccc_res res;
	unsigned int major, minor;
	int ret;

	ret = hyptrace_call(HYPTRACE_CALL_VERSION, 0, 0, 0, 0, &res, 0);
	if (ret)
		return ret;
	major = (res.a1 >> 16) & 0xffff;
	minor = res.a1 & 0xffff;
	if (major != HYPTRACE_ABI_MAJOR) {
		pr_err("hypervisor ABI %u.%u, this module needs %u.x\n",
		       major, minor, HYPTRACE_ABI_MAJOR);
		return -EPROTONOSUPPORT;
	}
	if (!(res.a3 & HYPTRACE_FEATURE_TRACING)) {
		pr_err("hypervisor ABI %u.%u without tracing (features %#lx)\n",
		       major, minor, res.a3);
		return -EOPNOTSUPP;
	}
	ht->abi_minor = minor;
	return 0;
}

/*
 * What the hypervisor says about its buffers must fit this kernel: one data
 * page is one kernel page, the events are the ones events.c describes, and
 * every CPU Linux may run has a buffer.
 */
static int query_tracing(struct hyptrace *ht)
{
	unsigned int page_shift, nr_events, abi;
	struct arm_smccc_res res;
	int ret;

	ret = hyptrace_call(HYPTRACE_CALL_TRACE_QUERY, 0, 0, 0, 0, &res, 0);
	if (ret)
		return ret;
	ht->carveout_base = res.a1;
	ht->carveout_size = res.a2;
	page_shift = HYPTRACE_QUERY_PAGE_SHIFT(res.a3);
	ht->nr_cpus = HYPTRACE_QUERY_NR_CPUS(res.a3);
	nr_events = HYPTRACE_QUERY_NR_EVENTS(res.a3);
	abi = HYPTRACE_QUERY_ABI(res.a3);

	if (abi >> 16 != HYPTRACE_ABI_MAJOR) {
		pr_err("TRACE_QUERY answers for ABI %u.%u, this module needs %u.x\n",
		       abi >> 16, abi & 0xffff, HYPTRACE_ABI_MAJOR);
		return -EPROTONOSUPPORT;
	}
	if (page_shift != PAGE_SHIFT) {
		pr_err("hypervisor trace pages are 2^%u bytes, kernel pages 2^%u\n",
		       page_shift, PAGE_SHIFT);
		return -EINVAL;
	}
	if (nr_events != HYP_NR_EVENTS) {
		pr_err("hypervisor has %u events, this module knows %u\n",
		       nr_events, HYP_NR_EVENTS);
		return -EPROTO;
	}
	if (num_possible_cpus() > ht->nr_cpus ||
	    cpumask_last(cpu_possible_mask) >= ht->nr_cpus) {
		pr_err("hypervisor traces %u CPUs, Linux has %u possible (up to CPU %u)\n",
		       ht->nr_cpus, num_possible_cpus(),
		       cpumask_last(cpu_possible_mask));
		return -EINVAL;
	}
	if (!ht->carveout_size || !PAGE_ALIGNED(ht->carveout_base) ||
	    !PAGE_ALIGNED(ht->carveout_size)) {
		pr_err("hypervisor carve-out %pa, %zu bytes, is not whole pages\n",
		       &ht->carveout_base, ht->carveout_size);
		return -EINVAL;
	}
	return 0;
}

/*
 * The carve-out must be the region the device tree reserves from Linux:
 * otherwise the kernel could be using the pages the hypervisor writes.
 */
static int check_carveout(const struct hyptrace *ht)
{
	struct reserved_mem *rmem;
	struct device_node *np;

	np = of_find_compatible_node(NULL, NULL, HYPTRACE_CARVEOUT_COMPATIBLE);
	if (!np) {
		pr_err("no device-tree node compatible with \"%s\"\n",
		       HYPTRACE_CARVEOUT_COMPATIBLE);
		return -ENODEV;
	}
	rmem = of_reserved_mem_lookup(np);
	if (!rmem) {
		pr_err("%pOF is not a /reserved-memory region Linux reserved\n",
		       np);
		of_node_put(np);
		return -EINVAL;
	}
	of_node_put(np);
	if (rmem->base != ht->carveout_base ||
	    rmem->size != ht->carveout_size) {
		pr_err("hypervisor carve-out %pa + %#zx, device tree %pa + %pa\n",
		       &ht->carveout_base, ht->carveout_size, &rmem->base,
		       &rmem->size);
		return -EINVAL;
	}
	return 0;
}

/*
 * Whether the hypervisor started an early buffer at its boot that nobody
 * has adopted yet (ABI 1.4): the first load takes it (buffer.c).
 */
static int query_early(struct hyptrace *ht)
{
	struct arm_smccc_res res;
	int ret;

	if (ht->abi_minor < 4)
		return 0;
	ret = hyptrace_call(HYPTRACE_CALL_TRACE_EARLY, 0, 0, 0, 0, &res, 0);
	if (ret)
		return ret;
	if (res.a1 != HYPTRACE_EARLY_PENDING)
		return 0;
	if (res.a2 & ~GENMASK_ULL(HYP_NR_EVENTS, 1) || !res.a2 ||
	    !res.a3 || res.a3 > ht->carveout_size) {
		pr_err("TRACE_EARLY: events %#lx, %lu bytes per CPU: not an early buffer this module can show\n",
		       res.a2, res.a3);
		return -EPROTO;
	}
	ht->early_pending = true;
	ht->early_events = res.a2;
	ht->early_size = res.a3;
	return 0;
}

/*
 * trace_remote starts with every event off: make the hypervisor agree,
 * but for those the early buffer was started with, which the front end
 * shows on.
 */
static int disable_events(const struct hyptrace *ht)
{
	size_t i;
	int ret;

	for (i = 0; i < hyptrace_nr_events; i++) {
		if (ht->early_events & BIT_ULL(hyptrace_events[i].id))
			continue;
		ret = hyptrace_call(HYPTRACE_CALL_TRACE_ENABLE_EVENT,
				    hyptrace_events[i].id, 0, 0, 0, NULL, 0);
		if (ret)
			return ret;
	}
	return 0;
}

static int __init hyptrace_init(void)
{
	struct hyptrace *ht = &hyptrace;
	int ret;

	mutex_init(&ht->lock);
	ht->fe = HYPTRACE_FRONTEND;
	ret = find_hyptrace();
	if (!ret)
		ret = check_version(ht);
	/* Before anything else can fail: what the hypervisor said about it */
	if (!ret)
		hyptrace_hyp_log_init(ht);
	if (!ret)
		ret = query_tracing(ht);
	if (!ret)
		ret = hyptrace_check_cpu_map(ht);
	if (!ret)
		ret = check_carveout(ht);
	if (!ret)
		ret = query_early(ht);
	if (!ret)
		ret = disable_events(ht);
	if (!ret)
		ret = hyptrace_page_init(ht->nr_cpus);
	if (!ret)
		ret = hyptrace_raw_init(ht);
	if (ret)
		return ret;

	/* No-map memory outside the linear map: a write-back mapping of it */
	ht->carveout = memremap(ht->carveout_base, ht->carveout_size,
				MEMREMAP_WB);
	if (!ht->carveout) {
		pr_err("cannot map the carve-out at %pa, %zu bytes\n",
		       &ht->carveout_base, ht->carveout_size);
		return -ENOMEM;
	}

	ret = ht->fe->init(ht);
	if (ret) {
		memunmap(ht->carveout);
		return ret;
	}
	if (ht->early_pending)
		ht->fe->adopt(ht);
	/*
	 * A last boot that cannot be shown takes nothing from the live one;
	 * last_boot.c has said why in one line.
	 */
	hyptrace_last_boot_init(ht);
	hyptrace_panic_notifier_init(ht);
	return 0;
}
module_init(hyptrace_init);

MODULE_DESCRIPTION("hyptrace hypervisor trace buffers in tracefs (remotes/hypervisor)");
MODULE_LICENSE("GPL");
MODULE_VERSION(HYPTRACE_VERSION);
