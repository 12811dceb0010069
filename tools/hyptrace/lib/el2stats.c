// SPDX-License-Identifier: GPL-2.0
/*
 * Time spent in EL2: pairing hyp_enter with hyp_exit per CPU, then the
 * totals, percentiles and histograms `hyptrace stats` prints. The rules
 * are in el2stats.h; this file holds no I/O so the unit test can drive it.
 * No interval is kept: each goes into its group's counters and log-linear
 * histogram (loghist.c), so that an hour's trace fits as well as a second's.
 */
#include <stdlib.h>
#include <string.h>

#include "hyptrace/el2stats.h"

#define EL2_FUNCS_MIN_CAP	64

int el2stats_init(struct el2_stats *s, unsigned int nr_cpus)
{
	memset(s, 0, sizeof(*s));
	s->cpus = calloc(nr_cpus ? nr_cpus : 1, sizeof(*s->cpus));
	s->funcs = calloc(EL2_FUNCS_MIN_CAP, sizeof(*s->funcs));
	if (!s->cpus || !s->funcs) {
		el2stats_free(s);
		return -1;
	}
	s->nr_cpus = nr_cpus;
	s->funcs_cap = EL2_FUNCS_MIN_CAP;
	return 0;
}

void el2stats_free(struct el2_stats *s)
{
	unsigned int cpu, r;

	for (cpu = 0; s->cpus && cpu < s->nr_cpus; cpu++)
		for (r = 0; r < EL2_NR_REASONS; r++)
			loghist_free(&s->cpus[cpu].reason[r].lengths);
	free(s->cpus);
	free(s->funcs);
	memset(s, 0, sizeof(*s));
}

unsigned int el2stats_reason_slot(uint64_t reason)
{
	return reason >= 1 && reason < EL2_NR_REASONS ?
		(unsigned int)reason : EL2_REASON_UNKNOWN;
}

const char *el2stats_reason_name(unsigned int slot)
{
	static const char *const names[EL2_NR_REASONS] = {
		"unknown", "hvc", "smc", "psci", "firmware", "trap",
		"psci_local",
	};

	return slot < EL2_NR_REASONS ? names[slot] : names[0];
}

unsigned int el2stats_hist_bucket(uint64_t ns)
{
	return ns ? 64 - (unsigned int)__builtin_clzll(ns) : 0;
}

uint64_t el2stats_hist_lo(unsigned int bucket)
{
	if (!bucket || bucket >= EL2_HIST_BUCKETS)
		return 0;
	return 1ULL << (bucket - 1);
}

uint64_t el2stats_hist_hi(unsigned int bucket)
{
	if (bucket >= EL2_HIST_BUCKETS - 1)
		return UINT64_MAX;
	return (1ULL << bucket) - 1;
}

static size_t func_hash(uint16_t reason, uint32_t func_id, size_t cap)
{
	uint64_t key = ((uint64_t)reason << 32) | func_id;

	key *= 0x9e3779b97f4a7c15ULL;
	return (size_t)(key >> 32) & (cap - 1);
}

static struct el2_func *func_slot(struct el2_func *table, size_t cap,
				  uint16_t reason, uint32_t func_id)
{
	size_t i = func_hash(reason, func_id, cap);

	while (table[i].count &&
	       (table[i].reason != reason || table[i].func_id != func_id))
		i = (i + 1) & (cap - 1);
	return &table[i];
}

static int funcs_grow(struct el2_stats *s)
{
	size_t cap = s->funcs_cap * 2, i;
	struct el2_func *table = calloc(cap, sizeof(*table));

	if (!table)
		return -1;
	for (i = 0; i < s->funcs_cap; i++) {
		const struct el2_func *f = &s->funcs[i];

		if (f->count)
			*func_slot(table, cap, f->reason, f->func_id) = *f;
	}
	free(s->funcs);
	s->funcs = table;
	s->funcs_cap = cap;
	return 0;
}

static int func_add(struct el2_stats *s, uint16_t reason, uint32_t func_id,
		    uint64_t ns)
{
	struct el2_func *f;

	/* keep the table at most half full, so that a search ends */
	if (s->nr_funcs < EL2_FUNCS_MAX &&
	    (s->nr_funcs + 1) * 2 > s->funcs_cap && funcs_grow(s))
		return -1;
	f = func_slot(s->funcs, s->funcs_cap, reason, func_id);
	if (!f->count && s->nr_funcs >= EL2_FUNCS_MAX) {
		f = &s->funcs_other;
	} else if (!f->count) {
		f->reason = reason;
		f->func_id = func_id;
		s->nr_funcs++;
	}
	f->count++;
	f->total_ns += ns;
	if (ns > f->max_ns)
		f->max_ns = ns;
	return 0;
}

static int group_add(struct el2_group *g, uint64_t ns)
{
	if (loghist_add(&g->lengths, ns))
		return -1;
	g->total_ns += ns;
	g->hist[el2stats_hist_bucket(ns)]++;
	return 0;
}

int el2stats_pair_lost(struct el2_pairing *p)
{
	int was_open = p->open;

	p->open = 0;
	return was_open;
}

int el2stats_pair_enter(struct el2_pairing *p, uint64_t ts)
{
	int was_open = p->open;

	p->open = 1;
	p->open_ts = ts;
	return was_open;
}

int el2stats_pair_exit(struct el2_pairing *p, uint64_t ts, uint64_t *ns)
{
	if (!p->open)
		return EL2_EXIT_NO_ENTER;
	p->open = 0;
	if (ts < p->open_ts)
		return EL2_EXIT_TIME_BACKWARDS;
	*ns = ts - p->open_ts;
	return -1;
}

int el2stats_pair_end(struct el2_pairing *p)
{
	return el2stats_pair_lost(p);
}

/* The open enter of @c was dropped by the pairing: count it, and why. */
static void count_dropped(struct el2_cpu *c, enum el2_unmatched_enter why)
{
	c->reason[el2stats_reason_slot(c->open_reason)].unmatched_enter[why]++;
}

void el2stats_lost(struct el2_stats *s, unsigned int cpu, uint64_t nr_lost)
{
	struct el2_cpu *c;

	if (s->finished || cpu >= s->nr_cpus || !nr_lost)
		return;
	c = &s->cpus[cpu];
	if (el2stats_pair_lost(&c->pairing))
		count_dropped(c, EL2_ENTER_CUT_BY_LOST);
	c->lost_markers++;
	if (nr_lost == UINT64_MAX)
		c->lost_unknown++;
	else
		c->lost_events += nr_lost;
}

int el2stats_enter(struct el2_stats *s, unsigned int cpu, uint64_t ts,
	      uint16_t reason, uint32_t func_id)
{
	struct el2_cpu *c;

	if (s->finished || cpu >= s->nr_cpus)
		return 0;
	c = &s->cpus[cpu];
	if (el2stats_pair_enter(&c->pairing, ts))
		count_dropped(c, EL2_ENTER_THEN_ENTER);
	c->open_reason = reason;
	c->open_func_id = func_id;
	return 0;
}

int el2stats_exit(struct el2_stats *s, unsigned int cpu, uint64_t ts,
	     uint16_t reason)
{
	struct el2_cpu *c;
	uint64_t ns;
	int why;

	if (s->finished || cpu >= s->nr_cpus)
		return 0;
	c = &s->cpus[cpu];
	why = el2stats_pair_exit(&c->pairing, ts, &ns);
	if (why == EL2_EXIT_TIME_BACKWARDS)
		count_dropped(c, EL2_ENTER_TIME_BACKWARDS);
	if (why >= 0) {
		c->reason[el2stats_reason_slot(reason)].unmatched_exit[why]++;
		return 0;
	}
	if (group_add(&c->reason[el2stats_reason_slot(c->open_reason)], ns))
		return -1;
	return func_add(s, c->open_reason, c->open_func_id, ns);
}

void el2stats_finish(struct el2_stats *s)
{
	unsigned int cpu;

	if (s->finished)
		return;
	for (cpu = 0; cpu < s->nr_cpus; cpu++) {
		struct el2_cpu *c = &s->cpus[cpu];

		if (el2stats_pair_end(&c->pairing))
			count_dropped(c, EL2_ENTER_OPEN_AT_END);
	}
	s->finished = 1;
}

static void summary_add_counts(struct el2_summary *out,
			       const struct el2_group *g)
{
	unsigned int i;

	out->count += g->lengths.count;
	out->total_ns += g->total_ns;
	for (i = 0; i < EL2_HIST_BUCKETS; i++)
		out->hist[i] += g->hist[i];
	for (i = 0; i < EL2_NR_UNMATCHED_ENTER; i++)
		out->unmatched_enter[i] += g->unmatched_enter[i];
	for (i = 0; i < EL2_NR_UNMATCHED_EXIT; i++)
		out->unmatched_exit[i] += g->unmatched_exit[i];
}

/* Does group (cpu, r) belong to the selection (@cpu, @reason), -1 = all? */
static int selected(int want_cpu, int want_reason, unsigned int cpu,
		    unsigned int r)
{
	return (want_cpu < 0 || (unsigned int)want_cpu == cpu) &&
	       (want_reason < 0 || (unsigned int)want_reason == r);
}

/* The counts of the selection; *@only is its one non-empty group, if one */
static unsigned int count_groups(const struct el2_stats *s, int want_cpu,
				 int want_reason, struct el2_summary *out,
				 const struct el2_group **only)
{
	unsigned int cpu, r, nr_groups = 0;

	memset(out, 0, sizeof(*out));
	for (cpu = 0; cpu < s->nr_cpus; cpu++)
		for (r = 0; r < EL2_NR_REASONS; r++) {
			const struct el2_group *g = &s->cpus[cpu].reason[r];

			if (!selected(want_cpu, want_reason, cpu, r))
				continue;
			summary_add_counts(out, g);
			if (g->lengths.count) {
				*only = g;
				nr_groups++;
			}
		}
	if (out->count)
		out->mean_ns = (double)out->total_ns / (double)out->count;
	return nr_groups;
}

void el2stats_count(const struct el2_stats *s, int want_cpu, int want_reason,
	       struct el2_summary *out)
{
	const struct el2_group *only;

	count_groups(s, want_cpu, want_reason, out, &only);
}

static void take_lengths(struct el2_summary *out, const struct loghist *h)
{
	out->min_ns = h->min;
	out->max_ns = h->max;
	out->p50_ns = loghist_quantile(h, 50);
	out->p99_ns = loghist_quantile(h, 99);
}

int el2stats_summarize(const struct el2_stats *s, int want_cpu, int want_reason,
		  struct el2_summary *out)
{
	const struct el2_group *only = NULL;
	struct loghist merged = { 0 };
	unsigned int cpu, r;
	int ret = 0;

	if (count_groups(s, want_cpu, want_reason, out, &only) <= 1) {
		if (only)
			take_lengths(out, &only->lengths);
		return 0;
	}
	/* several groups: their sum, at most 58 KiB, for this call only */
	for (cpu = 0; cpu < s->nr_cpus && !ret; cpu++)
		for (r = 0; r < EL2_NR_REASONS && !ret; r++)
			if (selected(want_cpu, want_reason, cpu, r))
				ret = loghist_merge(&merged,
						    &s->cpus[cpu].reason[r].lengths);
	if (!ret)
		take_lengths(out, &merged);
	loghist_free(&merged);
	return ret;
}

static int cmp_func_key(const struct el2_func *a, const struct el2_func *b)
{
	if (a->reason != b->reason)
		return a->reason < b->reason ? -1 : 1;
	return a->func_id < b->func_id ? -1 : a->func_id > b->func_id;
}

/* Larger first */
static int cmp_desc(uint64_t a, uint64_t b)
{
	return a > b ? -1 : a < b;
}

static int cmp_by_count(const void *pa, const void *pb)
{
	const struct el2_func *a = pa, *b = pb;

	return cmp_desc(a->count, b->count) ?:
	       cmp_desc(a->total_ns, b->total_ns) ?: cmp_func_key(a, b);
}

static int cmp_by_time(const void *pa, const void *pb)
{
	const struct el2_func *a = pa, *b = pb;

	return cmp_desc(a->total_ns, b->total_ns) ?:
	       cmp_desc(a->count, b->count) ?: cmp_func_key(a, b);
}

long el2stats_top_funcs(const struct el2_stats *s, int by_time, size_t max,
		   struct el2_func **out)
{
	struct el2_func *all;
	size_t i, n = 0;

	*out = NULL;
	all = malloc((s->nr_funcs ? s->nr_funcs : 1) * sizeof(*all));
	if (!all)
		return -1;
	for (i = 0; i < s->funcs_cap; i++)
		if (s->funcs[i].count)
			all[n++] = s->funcs[i];
	qsort(all, n, sizeof(*all), by_time ? cmp_by_time : cmp_by_count);
	*out = all;
	return (long)(max && max < n ? max : n);
}
