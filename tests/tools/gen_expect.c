// SPDX-License-Identifier: GPL-2.0
/*
 * gen_trace: what the tools must say about the file it wrote, from the
 * events decoded out of it again: the exact 'hyptrace report' text
 * (--expect, --expect-ns) and the counts (--summary; gen_trace.c's head
 * comment lists them).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "gen_trace.h"
#include "hyp_events.h"

static const char *reason_name(u16 r, char *buf, size_t len)
{
	static const char *const names[] = {
		NULL, "hvc", "smc", "psci", "firmware", "trap", "psci_local",
	};

	if (r && r < sizeof(names) / sizeof(names[0]))
		return names[r];
	snprintf(buf, len, "0x%x", r);
	return buf;
}

/*
 * The line trace_remote prints for @e, written here by hand as a check;
 * with @ns, nanoseconds after the point instead of microseconds.
 */
static void print_event(FILE *f, unsigned int c, const struct ev *e, int ns)
{
	unsigned long long us = e->ts / 1000;
	char rbuf[24];

	if (e->lost == UINT64_MAX)
		fprintf(f, "CPU:%u [LOST EVENTS]\n", c);
	else if (e->lost)
		fprintf(f, "CPU:%u [LOST %llu EVENTS]\n", c,
			(unsigned long long)e->lost);
	if (ns)
		fprintf(f, "[%03u]\t%5llu.%09llu: ", c,
			(unsigned long long)e->ts / 1000000000,
			(unsigned long long)e->ts % 1000000000);
	else
		fprintf(f, "[%03u]\t%5llu.%06llu: ", c, us / 1000000,
			us % 1000000);
	switch (e->id) {
	case HYP_EVENT_hyp_enter:
		fprintf(f, "hyp_enter reason=%s func_id=0x%x\n",
			reason_name(e->reason, rbuf, sizeof(rbuf)),
			e->func_id);
		break;
	case HYP_EVENT_hyp_exit:
		fprintf(f, "hyp_exit reason=%s func_id=0x%x ret=%lld\n",
			reason_name(e->reason, rbuf, sizeof(rbuf)),
			e->func_id, (long long)e->ret);
		break;
	default:
		fprintf(f, "selftest id=%llu\n", (unsigned long long)e->sid);
	}
}

void write_expect(const char *path, int ns, const struct opts *o)
{
	u64 pos[MAX_CPUS] = { 0 };
	FILE *f = fopen(path, "w");

	if (!f)
		die("%s: %s", path, strerror(errno));
	for (;;) {
		int best = -1;
		unsigned int c;

		/* smallest timestamp first, the lower CPU on a tie */
		for (c = 0; c < o->cpus; c++) {
			if (pos[c] < cpus[c].nr_got &&
			    (best < 0 || cpus[c].got[pos[c]].ts <
					 cpus[best].got[pos[best]].ts))
				best = c;
		}
		if (best < 0)
			break;
		print_event(f, best, &cpus[best].got[pos[best]++], ns);
	}
	if (fclose(f))
		die("%s: %s", path, strerror(errno));
}

struct counts {
	u64 events, lost, marks, enter, exit, selftest, el2_ns, pairs;
	u64 extends;
};

static void count_cpu(unsigned int c, struct counts *k, u64 *rpairs,
		      u64 *rns)
{
	const struct cpu_gen *g = &cpus[c];
	u64 i, prev_idx = 0;

	memset(k, 0, sizeof(*k));
	k->events = g->nr_got;
	for (i = 0; i < g->nr_got; i++) {
		const struct ev *e = &g->got[i];
		const struct ev *p = i ? &g->got[i - 1] : NULL;

		if (e->lost) {
			k->marks++;
			/* the writer's own count where the page has none */
			k->lost += e->written - (i ? prev_idx + 1 : 0);
		}
		prev_idx = e->written;
		k->enter += e->id == HYP_EVENT_hyp_enter;
		k->exit += e->id == HYP_EVENT_hyp_exit;
		k->selftest += e->id == HYP_EVENT_selftest;
		if (p && e->ts - p->ts >= (1ULL << RB_TS_SHIFT))
			k->extends++;
		if (e->id == HYP_EVENT_hyp_exit && p &&
		    p->id == HYP_EVENT_hyp_enter &&
		    p->written + 1 == e->written) {
			k->pairs++;
			k->el2_ns += e->ts - p->ts;
			rpairs[p->reason < 16 ? p->reason : 0]++;
			rns[p->reason < 16 ? p->reason : 0] += e->ts - p->ts;
		}
	}
}

void write_summary(const struct opts *o)
{
	u64 rpairs[16] = { 0 }, rns[16] = { 0 };
	struct counts k, total = { 0 };
	FILE *f = fopen(o->summary, "w");
	unsigned int c, r;
	char rbuf[24];

	if (!f)
		die("%s: %s", o->summary, strerror(errno));
	fprintf(f, "cpus %u\n", o->cpus);
	for (c = 0; c < o->cpus; c++) {
		const struct cpu_gen *g = &cpus[c];

		count_cpu(c, &k, rpairs, rns);
		fprintf(f, "cpu %u written %llu\n", c,
			(unsigned long long)g->nr_written);
		fprintf(f, "cpu %u events %llu\n", c,
			(unsigned long long)k.events);
		fprintf(f, "cpu %u lost %llu\n", c, (unsigned long long)k.lost);
		fprintf(f, "cpu %u lost_marks %llu\n", c,
			(unsigned long long)k.marks);
		fprintf(f, "cpu %u hyp_enter %llu\n", c,
			(unsigned long long)k.enter);
		fprintf(f, "cpu %u hyp_exit %llu\n", c,
			(unsigned long long)k.exit);
		fprintf(f, "cpu %u selftest %llu\n", c,
			(unsigned long long)k.selftest);
		fprintf(f, "cpu %u pairs %llu\n", c,
			(unsigned long long)k.pairs);
		fprintf(f, "cpu %u el2_ns %llu\n", c,
			(unsigned long long)k.el2_ns);
		fprintf(f, "cpu %u extends %llu\n", c,
			(unsigned long long)k.extends);
		if (g->nr_got) {
			fprintf(f, "cpu %u first_ts %llu\n", c,
				(unsigned long long)g->got[0].ts);
			fprintf(f, "cpu %u last_ts %llu\n", c,
				(unsigned long long)g->got[g->nr_got - 1].ts);
		}
		total.events += k.events;
		total.lost += k.lost;
		total.pairs += k.pairs;
		total.el2_ns += k.el2_ns;
	}
	for (r = 0; r < 16; r++) {
		if (!rpairs[r])
			continue;
		fprintf(f, "reason %s pairs %llu\n",
			r ? reason_name(r, rbuf, sizeof(rbuf)) : "other",
			(unsigned long long)rpairs[r]);
		fprintf(f, "reason %s el2_ns %llu\n",
			r ? reason_name(r, rbuf, sizeof(rbuf)) : "other",
			(unsigned long long)rns[r]);
	}
	fprintf(f, "total events %llu\n", (unsigned long long)total.events);
	fprintf(f, "total lost %llu\n", (unsigned long long)total.lost);
	fprintf(f, "total pairs %llu\n", (unsigned long long)total.pairs);
	fprintf(f, "total el2_ns %llu\n", (unsigned long long)total.el2_ns);
	if (fclose(f))
		die("%s: %s", o->summary, strerror(errno));
}
