// SPDX-License-Identifier: GPL-2.0
/*
 * hvc_fuzz: random SMCCC calls through HVC #0 from every online CPU at once.
 *
 *   insmod hvc_fuzz.ko calls=100000 [seed=N] [hostile=1]
 *
 * One kthread per online CPU makes its share of @calls hypercalls. A call's
 * function ID is drawn from the whole vendor-specific hypervisor range
 * (owner 6: fast and yielding, SMC32 and SMC64, uniformly and, half of the
 * time, aimed at the numbers hyptrace uses and their neighbours), with the
 * SVE hint or junk in x0's upper half now and then, and from other owners.
 * x1..x17 are random (small numbers, edge values, anything) and x4..x17
 * must come back unchanged (SMCCC 1.1: only x0..x3 carry results).
 *
 * Every answer is counted by status code, and checked where the ABI says
 * what it must be: an ID the hypervisor does not implement answers
 * NOT_SUPPORTED; a hyptrace call answers one of the documented codes; a
 * call whose arguments are known to be invalid answers INVALID; an
 * MMIO_REGION ADD of memory that may not be traced (a range touching
 * Linux's RAM, the hypervisor's region or the trace carve-out, with a
 * valid size and mode) answers DENIED;
 * IMAGE_SUM always answers the sum taken before the run. A mismatch is
 * "unexpected", printed with its registers for reproduction (with the seed,
 * a run can be repeated). Before and after the run IMAGE_SUM (ABI 1.3) must
 * agree and the memory canary be intact.
 *
 * Coexistence with the real hyptrace.ko, which keeps tracing meanwhile:
 * by default (hostile=0) the calls that would change its buffer behind its
 * back are sent only with arguments the ABI rejects (ENABLE x1 >= 2,
 * SWAP_READER, RESET and HIDE_COUNTERS a CPU that does not exist,
 * ENABLE_EVENT an event value >= 2), and must answer INVALID; TRACE_UNLOAD,
 * which takes no argument, is skipped and counted as such. LOAD finds the
 * buffer loaded (BUSY) and random clock updates fail the rate or step
 * bounds, so both go out unconstrained. With hostile=1 nothing is held
 * back: the real module's buffer may be unloaded, reloaded, reset or
 * stopped under it, which it must survive without an oops; the test then
 * restarts tracing through tracefs and checks that it works again.
 *
 * The last line is
 *
 *   hvc_fuzz: result calls=N cpus=C seed=S hostile=H ms=T ok=.. not_supported=..
 *	invalid=.. no_memory=.. busy=.. not_loaded=.. again=.. clock_step=..
 *	denied=.. positive=.. other=.. skipped=.. unexpected=.. clobbered=..
 *	sum=same|... canary=intact|...
 *
 * Loading fails with -EIO when a check failed, after printing the line.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include "hyptrace_abi_linux.h"
#include "crew.h"
#include "hostile.h"

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/cpu.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/of.h>
#include <linux/of_address.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/slab.h>

static ulong calls = 100000;
module_param(calls, ulong, 0444);
MODULE_PARM_DESC(calls, "hypercalls in all, shared by the online CPUs");

static ulong seed;
module_param(seed, ulong, 0444);
MODULE_PARM_DESC(seed, "random seed (0: pick one; the result line shows it)");

static bool hostile;
module_param(hostile, bool, 0444);
MODULE_PARM_DESC(hostile, "also send the calls that disturb hyptrace.ko's buffer");

/* Status buckets: x0 as the ABI defines it, then the rest */
enum fuzz_bucket {
	B_OK, B_NOT_SUPPORTED, B_INVALID, B_NO_MEMORY, B_BUSY, B_NOT_LOADED,
	B_AGAIN, B_CLOCK_STEP, B_DENIED, B_POSITIVE, B_OTHER, NR_BUCKETS
};

static const char *const bucket_names[NR_BUCKETS] = {
	"ok", "not_supported", "invalid", "no_memory", "busy", "not_loaded",
	"again", "clock_step", "denied", "positive", "other",
};

struct fuzz_cpu {
	struct task_struct *task;
	unsigned int cpu;
	u64 rng;
	unsigned long todo;
	unsigned long count[NR_BUCKETS];
	unsigned long skipped;
	unsigned long unexpected;
	unsigned long clobbered;
};

static struct fuzz_cpu *fuzzers;
static struct crew crew;
static atomic_t reports;	/* cap on the unexpected answers printed */

/* What the run checks answers against, learnt before it starts */
static unsigned int hyp_cpus;
static u64 sum_before;
static bool have_sum;
/* The highest hyptrace call number of the hypervisor's ABI minor */
static unsigned int max_func;

/*
 * Memory MMIO_REGION must refuse to trace: pages of Linux's RAM (a few
 * allocated for the run, and the first page of the linear map), the
 * hypervisor's region and the trace carve-out
 */
#define DENIED_PAGES	4
#define DENIED_MAX	(DENIED_PAGES + 3)
static struct {
	u64 base, size;
} denied[DENIED_MAX];
static unsigned int nr_denied;
static unsigned long denied_page[DENIED_PAGES];

static u64 rnd(struct fuzz_cpu *f)
{
	return hostile_rnd(&f->rng);
}

static u64 pick(struct fuzz_cpu *f, unsigned int n)
{
	return rnd(f) % n;
}

/* An argument: small values and edges reach the checks, junk the rest */
static u64 rnd_arg(struct fuzz_cpu *f)
{
	static const u64 edges[] = {
		0, 1, 2, 3, 4, 7, 8, 255, 256, 4095, 4096, 4097, 8192,
		0x7fffffff, 0x80000000, 0xffffffff, 0x100000000ULL,
		0x2000000, 0x4000000, 1ULL << 63, ~0ULL, ~0ULL - 1,
		(u64)-4096, 0x8000000000000000ULL - 1,
	};

	switch (pick(f, 8)) {
	case 0:
	case 1:
		return pick(f, 8);
	case 2:
		return edges[pick(f, ARRAY_SIZE(edges))];
	case 3:
		return rnd(f) & 0xffffffff;
	default:
		return rnd(f);
	}
}

/* A function ID, with x0's upper half (SMCCC says it must be zero) */
static u64 rnd_fid(struct fuzz_cpu *f)
{
	u32 flags = 0, func, owner = SMCCC_OWNER_VENDOR_HYP;
	u64 hi = 0;

	switch (pick(f, 20)) {
	case 0 ... 7:		/* vendor hyp, SMC64 fast: hyptrace's own */
		flags = SMCCC_FAST_CALL | SMCCC_64;
		break;
	case 8 ... 10:		/* vendor hyp, SMC32 fast: UID, REVISION */
		flags = SMCCC_FAST_CALL;
		break;
	case 11:		/* vendor hyp, yielding */
		flags = pick(f, 2) ? SMCCC_64 : 0;
		break;
	case 12:		/* hyptrace's calls with the SVE hint */
		flags = SMCCC_FAST_CALL | SMCCC_64;
		func = SMCCC_SVE_HINT | pick(f, 16);
		return SMCCC_ID(0, owner, 0) | flags | func;
	case 13:		/* ... and with junk in x0's upper half */
		hi = (rnd(f) | 1) << 32;
		flags = SMCCC_FAST_CALL | SMCCC_64;
		return hi | SMCCC_ID(0, owner, pick(f, 16)) | flags;
	default:		/* any other owner, any flags */
		do {
			owner = pick(f, 64);
		} while (owner == SMCCC_OWNER_VENDOR_HYP);
		return ((u32)rnd(f) &
			~(SMCCC_OWNER_MASK << SMCCC_OWNER_SHIFT)) |
		       owner << SMCCC_OWNER_SHIFT;
	}
	switch (pick(f, 4)) {
	case 0:
		func = rnd(f) & SMCCC_FUNC_MASK;
		break;
	case 1:
		func = 0xff00 | pick(f, 16);
		break;
	default:		/* every call, and the one past the last */
		func = pick(f, max_func + 2);
		break;
	}
	return SMCCC_ID(0, owner, func) | flags;
}

/*
 * The function the hypervisor dispatches @fid to: SMCCC says x0's upper
 * half must be zero (else nothing is called) and the SVE hint bit does not
 * choose the function.
 */
static u64 effective(u64 fid)
{
	return fid >> 32 ? 0 : fid & ~(u64)SMCCC_SVE_HINT;
}

/* The hyptrace calls that change the real module's buffer */
static bool disturbs(u64 fid)
{
	switch (effective(fid)) {
	case HYPTRACE_CALL_TRACE_UNLOAD:
	case HYPTRACE_CALL_TRACE_ENABLE:
	case HYPTRACE_CALL_TRACE_SWAP_READER:
	case HYPTRACE_CALL_TRACE_RESET:
	case HYPTRACE_CALL_TRACE_ENABLE_EVENT:
	case HYPTRACE_CALL_TRACE_HIDE_COUNTERS:
	case HYPTRACE_CALL_TRACE_LAST_BOOT:	/* RELEASE */
		return true;
	}
	return false;
}

/* Make @x's arguments invalid for @fid, so that it must answer INVALID */
static void invalidate(struct fuzz_cpu *f, u64 fid, u64 *x)
{
	switch (effective(fid)) {
	case HYPTRACE_CALL_TRACE_ENABLE:
		x[1] = 2 + (rnd(f) >> 1);
		break;
	case HYPTRACE_CALL_TRACE_SWAP_READER:
	case HYPTRACE_CALL_TRACE_RESET:
	case HYPTRACE_CALL_TRACE_HIDE_COUNTERS:
		x[1] = pick(f, 2) ? hyp_cpus + pick(f, 64) :
				    hyp_cpus + (rnd(f) >> 8);
		break;
	case HYPTRACE_CALL_TRACE_ENABLE_EVENT:
		x[2] = 2 + (rnd(f) >> 1);
		break;
	case HYPTRACE_CALL_TRACE_LAST_BOOT:
		x[1] = HYPTRACE_LAST_BOOT_RELEASE + 1 + (rnd(f) >> 1);
		break;
	case HYPTRACE_CALL_MMIO_REGION:
		x[1] = HYPTRACE_MMIO_REMOVE + 1 + (rnd(f) >> 1);	/* no such op */
		break;
	case HYPTRACE_CALL_MAINT_WINDOW:
		x[1] = HYPTRACE_MAINT_QUERY + 1 + (rnd(f) >> 1);	/* no such op */
		break;
	}
}

/*
 * MMIO_REGION ADD of a range that touches one of denied[]: from up to
 * four pages before it, or anywhere in it, any size up to 64 KiB that
 * reaches it, and a valid mode
 */
static void denied_args(struct fuzz_cpu *f, u64 *x)
{
	unsigned int i = pick(f, nr_denied);
	u64 base = denied[i].base, size = denied[i].size;

	if (pick(f, 2))
		base -= pick(f, 4) * 4096 + pick(f, 4096);
	else
		base += pick(f, size);
	x[1] = HYPTRACE_MMIO_ADD;
	x[2] = base;
	x[4] = HYPTRACE_MMIO_R + pick(f, 3);	/* R, W or both */
	/* At least up to the denied range's first byte */
	x[3] = (base < denied[i].base ? denied[i].base - base : 0) + 1 +
	       pick(f, 0x10000);
}

/* Is @ret a status the hyptrace call @fid may answer? */
static bool documented(u64 fid, long ret)
{
	switch (fid) {
	case HYPTRACE_CALL_VERSION:
	case HYPTRACE_CALL_TRACE_QUERY:
	case HYPTRACE_CALL_TRACE_WRITE_EVENT:
	case HYPTRACE_CALL_IMAGE_SUM:
	case HYPTRACE_CALL_TRACE_EARLY:
	case HYPTRACE_CALL_HOST_PANIC:
		return ret == HYPTRACE_RET_SUCCESS;
	case HYPTRACE_CALL_CPU_MPIDR:
	case HYPTRACE_CALL_TRACE_ENABLE_EVENT:
	case HYPTRACE_CALL_MMIO_QUERY:
	case HYPTRACE_CALL_MAINT_WINDOW:
		return ret == HYPTRACE_RET_SUCCESS ||
		       ret == HYPTRACE_RET_INVALID;
	}
	return ret == HYPTRACE_RET_SUCCESS ||
	       (ret <= HYPTRACE_RET_INVALID && ret >= HYPTRACE_RET_UNREAD);
}

/*
 * HVC #0 with x0..x17 from @x; afterwards x0..x3 are in @x, and the
 * return value says whether x4..x17 came back as they went (x18 is the
 * shadow call stack pointer: not ours to vary). x19 and x20 carry the
 * array addresses across the call; they are saved on the stack too, in
 * case the hypervisor does not preserve them either.
 */
static bool hvc_all(u64 *x)
{
	register u64 *in asm("x19") = x;
	register u64 *out asm("x20");
	bool clobbered = false;
	u64 after[18];
	unsigned int i;

	out = after;
	asm volatile("stp	x19, x20, [sp, #-16]!\n"
		     "ldp	x0, x1, [x19, #0]\n"
		     "ldp	x2, x3, [x19, #16]\n"
		     "ldp	x4, x5, [x19, #32]\n"
		     "ldp	x6, x7, [x19, #48]\n"
		     "ldp	x8, x9, [x19, #64]\n"
		     "ldp	x10, x11, [x19, #80]\n"
		     "ldp	x12, x13, [x19, #96]\n"
		     "ldp	x14, x15, [x19, #112]\n"
		     "ldp	x16, x17, [x19, #128]\n"
		     "hvc	#0\n"
		     "ldp	x19, x20, [sp], #16\n"
		     "stp	x0, x1, [x20, #0]\n"
		     "stp	x2, x3, [x20, #16]\n"
		     "stp	x4, x5, [x20, #32]\n"
		     "stp	x6, x7, [x20, #48]\n"
		     "stp	x8, x9, [x20, #64]\n"
		     "stp	x10, x11, [x20, #80]\n"
		     "stp	x12, x13, [x20, #96]\n"
		     "stp	x14, x15, [x20, #112]\n"
		     "stp	x16, x17, [x20, #128]\n"
		     : : "r" (in), "r" (out)
		     : "x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8",
		       "x9", "x10", "x11", "x12", "x13", "x14", "x15", "x16",
		       "x17", "memory");
	for (i = 4; i < ARRAY_SIZE(after); i++) {
		if (after[i] != x[i])
			clobbered = true;
	}
	for (i = 0; i < 4; i++)
		x[i] = after[i];
	return !clobbered;
}

static enum fuzz_bucket bucket(long ret)
{
	switch (ret) {
	case HYPTRACE_RET_SUCCESS:	return B_OK;
	case HYPTRACE_RET_NOT_SUPPORTED: return B_NOT_SUPPORTED;
	case HYPTRACE_RET_INVALID:	return B_INVALID;
	case HYPTRACE_RET_NO_MEMORY:	return B_NO_MEMORY;
	case HYPTRACE_RET_BUSY:		return B_BUSY;
	case HYPTRACE_RET_NOT_LOADED:	return B_NOT_LOADED;
	case HYPTRACE_RET_AGAIN:	return B_AGAIN;
	/* SWAP_READER's other "not now" (ABI 1.6): counted with AGAIN */
	case HYPTRACE_RET_UNREAD:	return B_AGAIN;
	case HYPTRACE_RET_CLOCK_STEP:	return B_CLOCK_STEP;
	case HYPTRACE_RET_DENIED:	return B_DENIED;
	}
	return ret > 0 ? B_POSITIVE : B_OTHER;
}

/*
 * What the answer to @fid must be, as far as the ABI pins it down. @x is
 * the answer, @guarded whether the arguments were made invalid, @deny
 * whether they name memory that may not be traced.
 */
static bool answer_ok(u64 fid, const u64 *x, bool guarded, bool deny)
{
	long ret = (long)x[0];

	/* Junk upper half, or yielding: nothing the hypervisor implements */
	if (fid >> 32 || !(fid & SMCCC_FAST_CALL))
		return ret == HYPTRACE_RET_NOT_SUPPORTED;
	fid = effective(fid);
	/* The Arm architecture calls may reach firmware: no fixed answer */
	if (SMCCC_OWNER(fid) == SMCCC_OWNER_ARCH)
		return true;
	if (fid == HYPTRACE_CALL_UID)
		return x[0] == HYPTRACE_UID_0 && x[1] == HYPTRACE_UID_1 &&
		       x[2] == HYPTRACE_UID_2 && x[3] == HYPTRACE_UID_3;
	if (fid == HYPTRACE_CALL_REVISION)
		return x[0] == HYPTRACE_ABI_MAJOR && x[1] >= 2;
	if (SMCCC_OWNER(fid) != SMCCC_OWNER_VENDOR_HYP || !(fid & SMCCC_64) ||
	    (fid & SMCCC_FUNC_MASK) > max_func)
		return ret == HYPTRACE_RET_NOT_SUPPORTED;
	if (fid == HYPTRACE_CALL_IMAGE_SUM && have_sum)
		return ret == HYPTRACE_RET_SUCCESS && x[1] == sum_before;
	if (guarded)
		return ret == HYPTRACE_RET_INVALID;
	if (deny)
		return ret == HYPTRACE_RET_DENIED;
	return documented(fid, ret);
}

static void report(struct fuzz_cpu *f, const u64 *in, const u64 *out,
		   const char *what)
{
	if (atomic_inc_return(&reports) > 10)
		return;
	pr_err("%s on CPU %u: x0=%#llx x1=%#llx x2=%#llx x3=%#llx x4=%#llx answered x0=%#llx x1=%#llx x2=%#llx x3=%#llx\n",
	       what, f->cpu, in[0], in[1], in[2], in[3], in[4], out[0], out[1],
	       out[2], out[3]);
}

static void fuzz_one(struct fuzz_cpu *f)
{
	u64 in[18], x[18];
	bool guarded = false, deny = false;
	unsigned int i;

	in[0] = rnd_fid(f);
	for (i = 1; i < ARRAY_SIZE(in); i++)
		in[i] = rnd_arg(f);
	/*
	 * MMIO_REGION with arguments that happen to be valid would trace a
	 * device page for the rest of the boot (the GIC, the console): its
	 * arguments are always made invalid or name memory that may not be
	 * traced, hostile or not. 93-mmio-trace checks its real adds.
	 */
	if (effective(in[0]) == HYPTRACE_CALL_MMIO_REGION) {
		if (nr_denied && pick(f, 2)) {
			denied_args(f, in);
			deny = true;
		} else {
			invalidate(f, in[0], in);
			guarded = true;
		}
	} else if (effective(in[0]) == HYPTRACE_CALL_MAINT_WINDOW) {
		/*
		 * A valid ARM would trap this CPU's TLB and cache maintenance
		 * for up to 60 s: QUERY, or no such op. 39-maint-window
		 * checks ARM and its refusals.
		 */
		if (pick(f, 2)) {
			in[1] = HYPTRACE_MAINT_QUERY;
		} else {
			invalidate(f, in[0], in);
			guarded = true;
		}
	} else if (!hostile && disturbs(in[0])) {
		if (effective(in[0]) == HYPTRACE_CALL_TRACE_UNLOAD) {
			f->skipped++;
			return;
		}
		invalidate(f, in[0], in);
		guarded = true;
	}
	memcpy(x, in, sizeof(x));
	if (!hvc_all(x)) {
		f->clobbered++;
		report(f, in, x, "x4..x17 changed");
	}
	f->count[bucket((long)x[0])]++;
	if (!answer_ok(in[0], x, guarded, deny)) {
		f->unexpected++;
		report(f, in, x, "unexpected answer");
	}
}

static int fuzz_thread(void *data)
{
	struct fuzz_cpu *f = data;
	unsigned long n;

	for (n = 0; n < f->todo && !kthread_should_stop(); n++) {
		fuzz_one(f);
		/* Let the CPU's other work run: the tracing goes on beside us */
		if (!(n & 63))
			cond_resched();
	}
	return crew_member_exit(&crew);
}

/* The reserved-memory node @compatible into denied[] */
static void deny_node(const char *compatible)
{
	struct device_node *np = of_find_compatible_node(NULL, NULL,
							 compatible);
	struct resource res;

	if (np && !of_address_to_resource(np, 0, &res)) {
		denied[nr_denied].base = res.start;
		denied[nr_denied++].size = resource_size(&res);
	}
	of_node_put(np);
}

static void denied_learn(void)
{
	unsigned int i;

	for (i = 0; i < DENIED_PAGES; i++) {
		denied_page[i] = __get_free_page(GFP_KERNEL);
		if (!denied_page[i])
			continue;
		denied[nr_denied].base = virt_to_phys((void *)denied_page[i]);
		denied[nr_denied++].size = PAGE_SIZE;
	}
	denied[nr_denied].base = memstart_addr;
	denied[nr_denied++].size = PAGE_SIZE;
	deny_node(HYPTRACE_HYP_MEM_COMPATIBLE);
	deny_node(HYPTRACE_CARVEOUT_COMPATIBLE);
}

static void denied_forget(void)
{
	unsigned int i;

	for (i = 0; i < DENIED_PAGES; i++)
		if (denied_page[i])
			free_page(denied_page[i]);
}

static int __init hvc_fuzz_init(void)
{
	unsigned long total[NR_BUCKETS] = { 0 }, skipped = 0, unexpected = 0;
	unsigned long clobbered = 0, share;
	unsigned int cpu, nr = 0, i;
	struct arm_smccc_res res;
	char line[512];
	u64 sum_after, bad = 0;
	bool sum_ok, canary_ok;
	ktime_t start;
	int len;

	arm_smccc_1_1_hvc(HYPTRACE_CALL_VERSION, 0, 0, 0, 0, &res);
	if ((long)res.a0 != HYPTRACE_RET_SUCCESS ||
	    res.a1 >> 16 != HYPTRACE_ABI_MAJOR) {
		pr_err("no hyptrace hypervisor (VERSION answered %ld)\n",
		       (long)res.a0);
		return -ENODEV;
	}
	hyp_cpus = res.a2;
	have_sum = hostile_image_sum(&sum_before, &bad);
	/*
	 * IMAGE_SUM came with 1.3, TRACE_EARLY 1.4, HOST_PANIC 1.5, HYP_LOG
	 * 1.7, MMIO_REGION and MMIO_QUERY 1.8, MAINT_WINDOW 1.9
	 */
	if ((res.a1 & 0xffff) >= 9)
		max_func = HYPTRACE_CALL_MAINT_WINDOW & SMCCC_FUNC_MASK;
	else if ((res.a1 & 0xffff) >= 8)
		max_func = HYPTRACE_CALL_MMIO_QUERY & SMCCC_FUNC_MASK;
	else if ((res.a1 & 0xffff) >= 7)
		max_func = HYPTRACE_CALL_HYP_LOG & SMCCC_FUNC_MASK;
	else if ((res.a1 & 0xffff) >= 5)
		max_func = HYPTRACE_CALL_HOST_PANIC & SMCCC_FUNC_MASK;
	else if ((res.a1 & 0xffff) >= 4)
		max_func = HYPTRACE_CALL_TRACE_EARLY & SMCCC_FUNC_MASK;
	else
		max_func = (have_sum ? HYPTRACE_CALL_IMAGE_SUM :
			    HYPTRACE_CALL_CPU_MPIDR) & SMCCC_FUNC_MASK;
	if (!seed)
		seed = get_random_u64() | 1;
	denied_learn();

	cpus_read_lock();
	fuzzers = kcalloc(nr_cpu_ids, sizeof(*fuzzers), GFP_KERNEL);
	if (!fuzzers) {
		cpus_read_unlock();
		denied_forget();
		return -ENOMEM;
	}
	share = calls / num_online_cpus();
	crew_init(&crew);
	for_each_online_cpu(cpu) {
		struct fuzz_cpu *f = &fuzzers[cpu];

		f->cpu = cpu;
		f->rng = seed * (2 * cpu + 1) ?: 1;
		f->todo = share + (nr == 0 ? calls % num_online_cpus() : 0);
		f->task = kthread_create_on_cpu(fuzz_thread, f, cpu,
						"hvc_fuzz/%u");
		if (IS_ERR(f->task)) {
			/* Counts as done, with nothing done */
			f->task = NULL;
			f->todo = 0;
			crew_member_done(&crew);
		}
		nr++;
	}
	start = ktime_get();
	for_each_online_cpu(cpu) {
		if (fuzzers[cpu].task)
			wake_up_process(fuzzers[cpu].task);
	}
	crew_wait(&crew);
	for_each_online_cpu(cpu) {
		struct fuzz_cpu *f = &fuzzers[cpu];

		if (f->task)
			kthread_stop(f->task);
		for (i = 0; i < NR_BUCKETS; i++)
			total[i] += f->count[i];
		skipped += f->skipped;
		unexpected += f->unexpected;
		clobbered += f->clobbered;
	}
	cpus_read_unlock();

	sum_ok = !have_sum;
	canary_ok = !have_sum;
	if (have_sum && hostile_image_sum(&sum_after, &bad)) {
		sum_ok = sum_after == sum_before;
		canary_ok = !bad;
	}

	len = scnprintf(line, sizeof(line),
			"result calls=%lu cpus=%u seed=%#lx hostile=%d ms=%lld",
			calls, nr, seed, hostile,
			ktime_ms_delta(ktime_get(), start));
	for (i = 0; i < NR_BUCKETS; i++)
		len += scnprintf(line + len, sizeof(line) - len, " %s=%lu",
				 bucket_names[i], total[i]);
	len += scnprintf(line + len, sizeof(line) - len,
			 " skipped=%lu unexpected=%lu clobbered=%lu", skipped,
			 unexpected, clobbered);
	if (!have_sum)
		scnprintf(line + len, sizeof(line) - len,
			  " sum=unsupported canary=unknown");
	else
		scnprintf(line + len, sizeof(line) - len,
			  " sum=%s canary=%s", sum_ok ? "same" : "CHANGED",
			  canary_ok ? "intact" : "CORRUPTED");
	pr_info("%s\n", line);
	if (!sum_ok)
		pr_err("IMAGE_SUM %#llx before, %#llx after\n", sum_before,
		       sum_after);
	if (!canary_ok)
		pr_err("memory canary changed at %#llx\n", bad);
	kfree(fuzzers);
	denied_forget();
	return unexpected || clobbered || !sum_ok || !canary_ok ? -EIO : 0;
}

static void __exit hvc_fuzz_exit(void)
{
}

module_init(hvc_fuzz_init);
module_exit(hvc_fuzz_exit);

MODULE_DESCRIPTION("hyptrace test: random hypercalls from every CPU at once");
MODULE_LICENSE("GPL");
