// SPDX-License-Identifier: GPL-2.0
/*
 * hostile_page: plant, on purpose, the records that once hung the host's
 * readers of the shared data pages (issue 21), into the live buffer's pages
 * (tests/boot/59-hostile-page.sh).
 *
 *   insmod hostile_page.ko [per_cpu=5] [last_boot=1] [patterns=31]
 *
 * With a buffer loaded and written, it reads the descriptor the hypervisor
 * left at the start of the carve-out (with @last_boot, the last boot's,
 * where TRACE_LAST_BOOT QUERY says) and, on every CPU, takes up to
 * @per_cpu pages that hold records, never the reader page (the consumer
 * holds it) nor the newest one (the writer may still append to it). Each
 * gets, in turn, one of these at a record boundary in its middle:
 *
 *   wrap	a type-0 record whose array[0] is 0xfffffffc..0xffffffff: a
 *		32-bit size wraps to 0..3 bytes
 *   commit	the page's commit far past the page (0x7ffff000)
 *   zero	a type-0 record of length 0
 *   padding	a padding record 0x7ffffff0 bytes long
 *   extend	a time extend whose second word lies past the commit
 *
 * @patterns chooses among them, one bit each in that order (1 wrap ...
 * 16 extend). The last line is
 *
 *   hostile_page: result planted=N wrap=.. commit=.. zero=.. padding=..
 *	extend=.. cpu0=.. cpu1=..
 *
 * Loading fails with -ENODATA when nothing could be planted. Test use only:
 * it breaks the trace on purpose.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include "hyptrace_abi_linux.h"

#include <linux/bitops.h>
#include <linux/io.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>

#include "rb_rec.h"
#include "region.h"

/* The hypervisor's own descriptor checks and record decoder, unchanged */
#include "trace_desc.c"
#include "rb_rec.c"

static uint per_cpu = 5;
module_param(per_cpu, uint, 0444);
MODULE_PARM_DESC(per_cpu, "pages to plant on, per CPU");

static bool last_boot;
module_param(last_boot, bool, 0444);
MODULE_PARM_DESC(last_boot, "plant in the last boot's kept pages instead");

static uint patterns = 31;
module_param(patterns, uint, 0444);
MODULE_PARM_DESC(patterns, "which to plant: 1 wrap, 2 commit, 4 zero, 8 padding, 16 extend");

enum pattern { P_WRAP, P_COMMIT, P_ZERO, P_PADDING, P_EXTEND, NR_PATTERNS };

static const char *const pattern_names[NR_PATTERNS] = {
	"wrap", "commit", "zero", "padding", "extend",
};

/*
 * A record boundary near the middle of @p's records, found with the one
 * decoder the readers use (the page is sound before we plant): 0 if none.
 */
static u32 middle_boundary(const struct rb_data_page *p)
{
	u64 commit = READ_ONCE(p->commit);
	struct rb_walk w;
	struct rb_rec rec;
	u32 last = 0;

	rb_walk_start(&w, p->data, commit, RB_PAGE_CAPACITY, 0);
	while (rb_rec_next(&w, &rec) && rec.off < w.commit / 2)
		last = rec.off;
	return last;
}

static void plant(struct rb_data_page *p, enum pattern pat, u32 off,
		  unsigned int n)
{
	u32 *word = (u32 *)(p->data + off);

	switch (pat) {
	case P_WRAP:
		WRITE_ONCE(word[1], 0xfffffffcU + n % 4);
		WRITE_ONCE(word[0], 1U << RB_TYPE_LEN_BITS);
		break;
	case P_COMMIT:
		WRITE_ONCE(p->commit, 0x7ffff000ULL);
		break;
	case P_ZERO:
		WRITE_ONCE(word[1], 0);
		WRITE_ONCE(word[0], 1U << RB_TYPE_LEN_BITS);
		break;
	case P_PADDING:
		WRITE_ONCE(word[1], 0x7ffffff0U);
		WRITE_ONCE(word[0], RB_TYPE_PADDING | 1U << RB_TYPE_LEN_BITS);
		break;
	case P_EXTEND:
		WRITE_ONCE(word[0], RB_TYPE_TIME_EXTEND |
			   1U << RB_TYPE_LEN_BITS);
		WRITE_ONCE(p->commit, off + 4);
		break;
	default:
		break;
	}
}

/* The @n-th pattern of those @patterns chooses, round and round */
static enum pattern next_pattern(unsigned int n)
{
	unsigned int chosen = hweight32(patterns & GENMASK(NR_PATTERNS - 1, 0));
	enum pattern pat;

	n %= chosen;
	for (pat = 0; pat < NR_PATTERNS; pat++) {
		if (patterns & BIT(pat) && !n--)
			break;
	}
	return pat;
}

static int __init hostile_page_init(void)
{
	unsigned int counts[NR_PATTERNS] = { 0 }, total = 0, cpu, done, pat;
	struct rb_trace_desc *desc = NULL, *shared;
	struct rb_data_page *p, *newest;
	void *carveout;
	const struct rb_desc_cpu *e;
	const struct rb_meta *meta;
	char line[256];
	int err = -ENODATA, len;
	u64 base, size, dlen, pa, dpa;
	struct arm_smccc_res smc;
	u32 id, reader, off;

	if (!(patterns & GENMASK(NR_PATTERNS - 1, 0)))
		return -EINVAL;
	carveout = test_map_carveout(&base, &size);
	if (IS_ERR(carveout))
		return PTR_ERR(carveout);
	dpa = base;
	if (last_boot) {
		arm_smccc_1_1_hvc(HYPTRACE_CALL_TRACE_LAST_BOOT,
				  HYPTRACE_LAST_BOOT_QUERY, 0, 0, 0, &smc);
		dpa = smc.a1;
	}
	if (dpa < base || dpa - base > size - PAGE_SIZE) {
		pr_err("no last boot\n");
		goto out;
	}
	shared = carveout + (dpa - base);
	dlen = READ_ONCE(shared->struct_len);
	if (dlen < sizeof(*desc) || dlen > size - (dpa - base)) {
		pr_err("no buffer loaded: turn tracing on first\n");
		goto out;
	}
	/* A copy: the checks and the walk below go by what was checked */
	desc = kvmalloc(dlen, GFP_KERNEL);
	err = -ENOMEM;
	if (!desc)
		goto out;
	memcpy(desc, shared, dlen);
	err = -EINVAL;
	if (rb_desc_check(desc, dlen, nr_cpu_ids)) {
		pr_err("the descriptor is malformed: is a buffer loaded?\n");
		goto out;
	}
	len = scnprintf(line, sizeof(line), " ");
	for (cpu = 0; cpu < desc->nr_cpus; cpu++) {
		e = rb_desc_entry(desc, desc->struct_len, cpu);
		if (e->meta_va < base || e->meta_va - base > size - PAGE_SIZE)
			goto out;
		meta = carveout + (e->meta_va - base);
		reader = READ_ONCE(meta->reader.id);
		newest = NULL;
		for (id = 0; id < e->nr_page_va; id++) {
			pa = e->page_va[id];
			if (pa < base || pa - base > size - PAGE_SIZE)
				goto out;
			p = carveout + (pa - base);
			if (READ_ONCE(p->commit) && (!newest ||
			    READ_ONCE(p->time_stamp) > newest->time_stamp))
				newest = p;
		}
		done = 0;
		for (id = 0; id < e->nr_page_va && done < per_cpu; id++) {
			p = carveout + (e->page_va[id] - base);
			off = middle_boundary(p);
			if (id == reader || p == newest || !off)
				continue;
			pat = next_pattern(cpu + total);
			plant(p, pat, off, counts[pat]);
			counts[pat]++;
			done++;
			total++;
		}
		len += scnprintf(line + len, sizeof(line) - len, " cpu%u=%u",
				 cpu, done);
	}
	pr_info("result planted=%u %s=%u %s=%u %s=%u %s=%u %s=%u%s\n", total,
		pattern_names[0], counts[0], pattern_names[1], counts[1],
		pattern_names[2], counts[2], pattern_names[3], counts[3],
		pattern_names[4], counts[4], line);
	err = total ? 0 : -ENODATA;
out:
	kvfree(desc);
	memunmap(carveout);
	return err;
}

static void __exit hostile_page_exit(void)
{
}

module_init(hostile_page_init);
module_exit(hostile_page_exit);

MODULE_DESCRIPTION("hyptrace test: plant hostile records in the data pages");
MODULE_LICENSE("GPL");
