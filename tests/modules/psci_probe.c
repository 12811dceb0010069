// SPDX-License-Identifier: GPL-2.0
/*
 * psci_probe: make PSCI CPU_ON calls as Linux makes them (its PSCI conduit,
 * which the hypervisor relays) for a CPU that Linux has taken offline, and
 * print what they answer.
 *
 *   insmod psci_probe.ko mpidr=0x2 bad=1
 *
 * CPU_ON with target_cpu values that have bits set outside the affinity
 * fields (PSCI DEN0022: bits [63:40] and [31:24] must be zero), one line
 * each:
 *
 *   psci_probe: bad target=0x80000002 ret=-2
 *
 *   insmod psci_probe.ko mpidr=0x2 rounds=20
 *
 * Per round, two CPU_ONs back to back with interrupts off, so that the
 * second finds the first still on its way, then a wait until every start
 * has arrived and AFFINITY_INFO says the CPU is off again. The started CPU
 * runs a stub that counts its arrival and calls CPU_OFF at once: it never
 * enters Linux. One line counts the answers:
 *
 *   psci_probe: rounds=20 first_ok=20 second: on_pending=20 already_on=0
 *   ok=0 other=0 (last -), settled=20
 *
 *   insmod psci_probe.ko mpidr=0x2 once=1
 *
 * One CPU_ON, whatever state the CPU is in (e.g. a start of it still on
 * its way), and its answer:
 *
 *   psci_probe: once target=0x2 ret=-5
 *
 *   insmod psci_probe.ko mpidr=0x2 once=1 pc=0x3f000000
 *
 * The same with an entry of the caller's choice instead of the stub (one
 * outside RAM, or in the hypervisor's region, where no CPU may be sent):
 *
 *   psci_probe: once target=0x2 pc=0x3f000000 ret=-9
 *
 * Loading always succeeds (unless the arguments are wrong), so that a test
 * can rmmod and probe again.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/arm-smccc.h>
#include <linux/delay.h>
#include <linux/gfp.h>
#include <linux/init.h>
#include <linux/irqflags.h>
#include <linux/jiffies.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/psci.h>
#include <linux/slab.h>

#include <asm/cacheflush.h>

#include <uapi/linux/psci.h>

static ulong mpidr = ~0UL;
module_param(mpidr, ulong, 0444);
MODULE_PARM_DESC(mpidr, "target CPU's MPIDR affinity (must be offline)");

static ulong pc;
module_param(pc, ulong, 0444);
MODULE_PARM_DESC(pc, "with once: CPU_ON's entry instead of the stub's");

static bool bad;
module_param(bad, bool, 0444);
MODULE_PARM_DESC(bad, "CPU_ON with invalid target_cpu values");

static bool once;
module_param(once, bool, 0444);
MODULE_PARM_DESC(once, "one CPU_ON, whatever the CPU's state");

static uint rounds;
module_param(rounds, uint, 0444);
MODULE_PARM_DESC(rounds, "rounds of two back-to-back CPU_ONs");

/* How long a started stub may take to be off again */
#define SETTLE_TIMEOUT_MS	2000
#define SETTLE_POLL_US		100
/* How long an invalid CPU_ON is given to start the CPU all the same */
#define BAD_WAIT_MS		100

/*
 * The entry the started CPU runs, at EL1 with its MMU off, from physical
 * memory, with x0 = the context ID: the physical address of a counter,
 * which it increments (so the module knows the start arrived), then
 * CPU_OFF through the same conduit; should that return, it waits.
 */
static const u32 stub[] = {
	0xb9400001,	/* ldr w1, [x0] */
	0x11000421,	/* add w1, w1, #1 */
	0xb9000001,	/* str w1, [x0] */
	0xd5033f9f,	/* dsb sy */
	0xd2800040,	/* movz x0, #0x0002 */
	0xf2b08000,	/* movk x0, #0x8400, lsl #16: PSCI_0_2_FN_CPU_OFF */
	0xd4000003,	/* smc #0 (hvc #0: 0xd4000002) */
	0xd503207f,	/* 1: wfi */
	0x17ffffff,	/* b 1b */
};
#define STUB_CONDUIT_INSN	6
#define INSN_HVC_0		0xd4000002
/* The counter, in a cache line of its own after the code */
#define STUB_COUNTER_OFFSET	256

static u32 *stub_counter;
static phys_addr_t stub_pa, counter_pa;
/* CPU_ONs that answered SUCCESS: each must arrive in the stub once */
static u32 accepted;

static long psci_call(u32 fid, u64 a1, u64 a2, u64 a3)
{
	struct arm_smccc_res res;

	arm_smccc_1_1_invoke(fid, a1, a2, a3, &res);
	return (long)res.a0;
}

static long cpu_on(u64 target)
{
	long ret = psci_call(PSCI_0_2_FN64_CPU_ON, target, stub_pa, counter_pa);

	accepted += ret == PSCI_RET_SUCCESS;
	return ret;
}

static long affinity_info(u64 target)
{
	return psci_call(PSCI_0_2_FN64_AFFINITY_INFO, target, 0, 0);
}

static void clean_to_poc(unsigned long start, unsigned long end)
{
	unsigned long line = start & ~(cache_line_size() - 1UL);

	for (; line < end; line += cache_line_size())
		asm volatile("dc civac, %0" : : "r" (line) : "memory");
	dsb(sy);
}

/* Starts of the stub that have arrived (it writes with its MMU off) */
static u32 arrivals(void)
{
	unsigned long va = (unsigned long)stub_counter;

	clean_to_poc(va, va + sizeof(*stub_counter));
	return READ_ONCE(*stub_counter);
}

/* Write the stub to a page and clean it to the point of coherency. */
static struct page *make_stub(void)
{
	struct page *page = alloc_page(GFP_KERNEL | __GFP_ZERO);
	unsigned long va;
	u32 *code;

	if (!page)
		return NULL;
	va = (unsigned long)page_address(page);
	code = (u32 *)va;
	memcpy(code, stub, sizeof(stub));
	if (arm_smccc_1_1_get_conduit() != SMCCC_CONDUIT_SMC)
		code[STUB_CONDUIT_INSN] = INSN_HVC_0;
	stub_counter = (u32 *)(va + STUB_COUNTER_OFFSET);
	/* The CPU fetches and writes with its MMU and caches off. */
	clean_to_poc(va, va + PAGE_SIZE);
	caches_clean_inval_pou(va, va + sizeof(stub));
	stub_pa = page_to_phys(page);
	counter_pa = stub_pa + STUB_COUNTER_OFFSET;
	return page;
}

/*
 * Wait until every accepted start has arrived and firmware says the target
 * is off; false on timeout. Counting arrivals matters: QEMU says OFF for a CPU
 * whose start it accepted but has not begun yet.
 */
static bool settle(void)
{
	unsigned long until = jiffies + msecs_to_jiffies(SETTLE_TIMEOUT_MS);

	while (arrivals() != accepted ||
	       affinity_info(mpidr) != PSCI_0_2_AFFINITY_LEVEL_OFF) {
		if (time_after(jiffies, until))
			return false;
		udelay(SETTLE_POLL_US);
	}
	return true;
}

static void probe_bad(void)
{
	/* Bit 31 is RES1 in MPIDR_EL1, bit 24 MT, the rest reserved. */
	static const u64 junk[] = { BIT(31), BIT(24), BIT(30), BIT(40), BIT(63) };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(junk); i++) {
		u64 target = mpidr | junk[i];

		pr_info("bad target=%#llx ret=%ld\n", target,
			cpu_on(target));
	}
	/* Give a start that should not have happened time to show. */
	msleep(BAD_WAIT_MS);
	if (arrivals())
		pr_info("bad: %u starts arrived, want none\n", arrivals());
}

static void probe_rounds(void)
{
	unsigned int r, first_ok = 0, pending = 0, already = 0, ok = 0;
	unsigned int other = 0, settled = 0;
	long first, second, last_other = 0;
	unsigned long flags;

	for (r = 0; r < rounds; r++) {
		local_irq_save(flags);
		first = cpu_on(mpidr);
		second = cpu_on(mpidr);
		local_irq_restore(flags);

		first_ok += first == PSCI_RET_SUCCESS;
		switch (second) {
		case PSCI_RET_ON_PENDING:
			pending++;
			break;
		case PSCI_RET_ALREADY_ON:
			already++;
			break;
		case PSCI_RET_SUCCESS:
			ok++;
			break;
		default:
			other++;
			last_other = second;
			break;
		}
		if (first != PSCI_RET_SUCCESS)
			pr_info("round %u: first CPU_ON answered %ld\n", r, first);
		settled += settle();
	}
	pr_info("rounds=%u first_ok=%u second: on_pending=%u already_on=%u ok=%u other=%u (last %ld), settled=%u\n",
		rounds, first_ok, pending, already, ok, other, last_other,
		settled);
}

static int __init psci_probe_init(void)
{
	struct page *stub;

	/* Linux's CPU numbers are not ours to look up: ask firmware. */
	if (!once && affinity_info(mpidr) != PSCI_0_2_AFFINITY_LEVEL_OFF) {
		pr_err("mpidr=%#lx: want a CPU that is off\n", mpidr);
		return -EINVAL;
	}
	stub = make_stub();
	if (!stub)
		return -ENOMEM;
	if (once && pc)
		pr_info("once target=%#lx pc=%#lx ret=%ld\n", mpidr, pc,
			psci_call(PSCI_0_2_FN64_CPU_ON, mpidr, pc, 0));
	else if (once)
		pr_info("once target=%#lx ret=%ld\n", mpidr, cpu_on(mpidr));
	if (bad)
		probe_bad();
	if (rounds)
		probe_rounds();
	/* Every start has run the stub to its CPU_OFF, or none was made. */
	if (!accepted || settle())
		__free_page(stub);
	else
		pr_err("CPU %#lx is still on: leaking the stub page\n", mpidr);
	return 0;
}

static void __exit psci_probe_exit(void)
{
}

module_init(psci_probe_init);
module_exit(psci_probe_exit);

MODULE_DESCRIPTION("hyptrace test: PSCI CPU_ON edge cases through the relay or the hypervisor's own PSCI");
MODULE_LICENSE("GPL");
