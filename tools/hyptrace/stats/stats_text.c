// SPDX-License-Identifier: GPL-2.0
/*
 * `hyptrace stats` for people: a title line per section, then an aligned
 * table. Times in EL2 are in µs with ns precision; the histogram's bounds
 * are in ns. The same figures, for programs, come out of stats_json.c.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

#define HIST_BAR_WIDTH	30

/* ns as µs with three decimals: "1234.567" */
static const char *us(char *buf, size_t len, uint64_t ns)
{
	snprintf(buf, len, "%" PRIu64 ".%03" PRIu64, ns / 1000, ns % 1000);
	return buf;
}

/* A timestamp in seconds, as trace-cmd prints them: "3.113266" */
static const char *secs(char *buf, size_t len, uint64_t ns)
{
	snprintf(buf, len, "%" PRIu64 ".%06" PRIu64, ns / 1000000000,
		 ns % 1000000000 / 1000);
	return buf;
}

static const char *cpu_label(char *buf, size_t len, int cpu)
{
	if (cpu < 0)
		snprintf(buf, len, "all");
	else
		snprintf(buf, len, "%d", cpu);
	return buf;
}

static uint64_t sum_enters(const struct el2_summary *s)
{
	uint64_t n = 0;
	int i;

	for (i = 0; i < EL2_NR_UNMATCHED_ENTER; i++)
		n += s->unmatched_enter[i];
	return n;
}

static uint64_t sum_exits(const struct el2_summary *s)
{
	uint64_t n = 0;
	int i;

	for (i = 0; i < EL2_NR_UNMATCHED_EXIT; i++)
		n += s->unmatched_exit[i];
	return n;
}

static void lost_of(const struct stats_report *r, int cpu, uint64_t *markers,
		    uint64_t *events, uint64_t *unknown)
{
	unsigned int c;

	*markers = *events = *unknown = 0;
	for (c = 0; c < r->nr_cpus; c++) {
		const struct el2_cpu *ec = &r->el2.cpus[c];

		if (cpu >= 0 && (unsigned int)cpu != c)
			continue;
		*markers += ec->lost_markers;
		*events += ec->lost_events;
		*unknown += ec->lost_unknown;
	}
}

static void print_header(FILE *f, const struct stats_report *r)
{
	uint64_t span = r->records ? r->last_ts - r->first_ts : 0;
	uint64_t markers, events, unknown;
	struct el2_summary all;
	char a[32], b[32], c[32];

	el2stats_count(&r->el2, -1, -1, &all);
	lost_of(r, -1, &markers, &events, &unknown);
	fprintf(f, "hyptrace stats: %s\n", r->path);
	fprintf(f, "  %u CPUs, %" PRIu64 " records", r->nr_cpus, r->records);
	if (r->records)
		fprintf(f, " from %s to %s s (span %s s)",
			secs(a, sizeof(a), r->first_ts),
			secs(b, sizeof(b), r->last_ts),
			secs(c, sizeof(c), span));
	fprintf(f, ", trace clock %s\n",
		r->trace_clock ? r->trace_clock : "not given");
	fprintf(f, "  %" PRIu64 " intervals in EL2 (%s µs); unmatched: %" PRIu64
		" enters, %" PRIu64 " exits; lost: %" PRIu64 " events",
		all.count, us(a, sizeof(a), all.total_ns), sum_enters(&all),
		sum_exits(&all), events);
	if (unknown)
		fprintf(f, " + %" PRIu64 " markers without a count", unknown);
	fprintf(f, "\n");
	if (r->malformed)
		fprintf(f, "  %" PRIu64 " enter/exit records too short to read, left out\n",
			r->malformed);
}

static void print_time_row(FILE *f, const struct stats_report *r, int cpu,
			   const char *reason, const struct el2_summary *s)
{
	uint64_t span = r->records ? r->last_ts - r->first_ts : 0;
	char lbl[16], t[32], m[32], p50[32], p99[32], mx[32], share[16];
	double cpus = cpu < 0 ? r->nr_cpus : 1;

	if (span)
		snprintf(share, sizeof(share), "%.3f%%",
			 100.0 * (double)s->total_ns / (double)span / cpus);
	else
		snprintf(share, sizeof(share), "-");
	snprintf(m, sizeof(m), "%.3f", s->mean_ns / 1000.0);
	fprintf(f, "%3s  %-8s %9" PRIu64 " %14s %10s %10s %10s %10s %8s\n",
		cpu_label(lbl, sizeof(lbl), cpu), reason, s->count,
		us(t, sizeof(t), s->total_ns), m,
		us(p50, sizeof(p50), s->p50_ns),
		us(p99, sizeof(p99), s->p99_ns),
		us(mx, sizeof(mx), s->max_ns), share);
}

/* One CPU's rows (or all CPUs' with @cpu -1): each reason seen, then all */
static int print_time_rows(FILE *f, const struct stats_report *r, int cpu)
{
	struct el2_summary s;
	int reason, shown = 0;

	for (reason = 1; reason <= EL2_NR_REASONS; reason++) {
		int slot = reason % EL2_NR_REASONS;	/* unknown last */

		el2stats_count(&r->el2, cpu, slot, &s);
		if (!s.count)
			continue;
		if (el2stats_summarize(&r->el2, cpu, slot, &s))
			return -1;
		print_time_row(f, r, cpu, el2stats_reason_name(slot), &s);
		shown++;
	}
	if (shown == 1)
		return 0;
	if (el2stats_summarize(&r->el2, cpu, -1, &s))
		return -1;
	print_time_row(f, r, cpu, "(all)", &s);
	return 0;
}

static int print_times(FILE *f, const struct stats_report *r)
{
	unsigned int cpu;

	fprintf(f, "\nTime in EL2 per CPU and reason (µs; p50, p99 within %.1f%%; %%span: share of the trace's time span, for \"all\" of all CPUs' time)\n",
		100.0 / LOGHIST_ERR_DIV);
	fprintf(f, "%3s  %-8s %9s %14s %10s %10s %10s %10s %8s\n", "CPU",
		"reason", "count", "total", "mean", "p50", "p99", "max",
		"%span");
	for (cpu = 0; cpu < r->nr_cpus; cpu++)
		if (print_time_rows(f, r, (int)cpu))
			return -1;
	if (r->nr_cpus > 1)
		return print_time_rows(f, r, -1);
	return 0;
}

static void print_unmatched(FILE *f, const struct stats_report *r)
{
	struct el2_summary s;
	char lbl[16];
	int cpu;

	fprintf(f, "\nUnmatched enters and exits per CPU (never paired, not in the times above)\n");
	fprintf(f, "     %s  %s\n",
		"------------------- enters --------------------",
		"------- exits -------");
	fprintf(f, "%3s  %10s %12s %12s %10s  %10s %10s\n", "CPU",
		"then-enter", "cut-by-lost", "open-at-end", "backwards",
		"no-enter", "backwards");
	for (cpu = 0; cpu <= (int)r->nr_cpus; cpu++) {
		int which = cpu < (int)r->nr_cpus ? cpu : -1;

		if (which < 0 && r->nr_cpus < 2)
			break;
		el2stats_count(&r->el2, which, -1, &s);
		fprintf(f, "%3s  %10" PRIu64 " %12" PRIu64 " %12" PRIu64
			" %10" PRIu64 "  %10" PRIu64 " %10" PRIu64 "\n",
			cpu_label(lbl, sizeof(lbl), which),
			s.unmatched_enter[EL2_ENTER_THEN_ENTER],
			s.unmatched_enter[EL2_ENTER_CUT_BY_LOST],
			s.unmatched_enter[EL2_ENTER_OPEN_AT_END],
			s.unmatched_enter[EL2_ENTER_TIME_BACKWARDS],
			s.unmatched_exit[EL2_EXIT_NO_ENTER],
			s.unmatched_exit[EL2_EXIT_TIME_BACKWARDS]);
	}
}

static int event_width(const struct stats_event *ev)
{
	int w = (int)strlen(ev->name);

	return w < 9 ? 9 : w;
}

static void print_records(FILE *f, const struct stats_report *r)
{
	uint64_t markers, events, unknown, n;
	char lbl[16];
	size_t e;
	int cpu;

	fprintf(f, "\nRecords per CPU, by event; lost events as the ring-buffer pages say\n");
	fprintf(f, "%3s  %10s", "CPU", "records");
	for (e = 0; e < r->nr_events; e++)
		fprintf(f, " %*s", event_width(&r->events[e]),
			r->events[e].name);
	fprintf(f, " %12s %12s %14s\n", "lost-markers", "lost-events",
		"unknown-count");
	for (cpu = 0; cpu <= (int)r->nr_cpus; cpu++) {
		int which = cpu < (int)r->nr_cpus ? cpu : -1;

		if (which < 0 && r->nr_cpus < 2)
			break;
		n = which < 0 ? r->records : r->cpus[which].records;
		fprintf(f, "%3s  %10" PRIu64, cpu_label(lbl, sizeof(lbl), which),
			n);
		for (e = 0; e < r->nr_events; e++)
			fprintf(f, " %*" PRIu64, event_width(&r->events[e]),
				which < 0 ? r->events[e].total :
				r->events[e].per_cpu[which]);
		lost_of(r, which, &markers, &events, &unknown);
		fprintf(f, " %12" PRIu64 " %12" PRIu64 " %14" PRIu64 "\n",
			markers, events, unknown);
	}
}

static int print_funcs(FILE *f, const struct stats_report *r, int by_time)
{
	struct el2_func *funcs;
	char id[16], name[48], t[32], m[32], mx[32];
	long n, i;

	n = el2stats_top_funcs(&r->el2, by_time, r->top, &funcs);
	if (n < 0)
		return -1;
	fprintf(f, "\n%s function IDs by %s (all CPUs; the enter's reason)\n",
		r->top ? "Top" : "All", by_time ? "time in EL2" : "count");
	/* one more byte for each µ, which takes two */
	fprintf(f, "%-8s  %-10s  %-28s %9s %15s %11s %11s\n", "reason",
		"func_id", "name", "count", "total µs", "mean µs", "max µs");
	for (i = 0; i < n; i++) {
		const struct el2_func *fn = &funcs[i];
		unsigned int slot = el2stats_reason_slot(fn->reason);

		snprintf(id, sizeof(id), "0x%08x", fn->func_id);
		snprintf(m, sizeof(m), "%.3f",
			 (double)fn->total_ns / (double)fn->count / 1000.0);
		fprintf(f, "%-8s  %-10s  %-28s %9" PRIu64 " %14s %10s %10s\n",
			el2stats_reason_name(slot), id,
			el2names_func_name(slot, fn->func_id, name, sizeof(name)),
			fn->count, us(t, sizeof(t), fn->total_ns), m,
			us(mx, sizeof(mx), fn->max_ns));
	}
	if (!n)
		fprintf(f, "(no interval in EL2)\n");
	if (r->el2.funcs_other.count)
		fprintf(f, "(and %" PRIu64 " intervals, %s µs, of function IDs beyond the first %d, not listed)\n",
			r->el2.funcs_other.count,
			us(t, sizeof(t), r->el2.funcs_other.total_ns),
			EL2_FUNCS_MAX);
	free(funcs);
	return 0;
}

static void print_bar(FILE *f, uint64_t n, uint64_t most)
{
	uint64_t len = most ? (n * HIST_BAR_WIDTH + most - 1) / most : 0;

	fputc(' ', f);
	while (len--)
		fputc('#', f);
}

static void print_histogram(FILE *f, const struct stats_report *r)
{
	struct el2_summary all, by_reason[EL2_NR_REASONS];
	unsigned int b, first = EL2_HIST_BUCKETS, last = 0, slot;
	uint64_t most = 0;

	el2stats_count(&r->el2, -1, -1, &all);
	for (slot = 0; slot < EL2_NR_REASONS; slot++)
		el2stats_count(&r->el2, -1, (int)slot, &by_reason[slot]);
	for (b = 0; b < EL2_HIST_BUCKETS; b++) {
		if (!all.hist[b])
			continue;
		if (first == EL2_HIST_BUCKETS)
			first = b;
		last = b;
		if (all.hist[b] > most)
			most = all.hist[b];
	}
	fprintf(f, "\nLengths of the intervals in EL2, all CPUs (log2 buckets, ns)\n");
	fprintf(f, "%12s %12s", "from ns", "to ns");
	for (slot = 1; slot <= EL2_NR_REASONS; slot++)
		if (by_reason[slot % EL2_NR_REASONS].count)
			fprintf(f, " %9s", el2stats_reason_name(slot % EL2_NR_REASONS));
	fprintf(f, " %9s\n", "all");
	for (b = first; b <= last && first < EL2_HIST_BUCKETS; b++) {
		fprintf(f, "%12" PRIu64 " %12" PRIu64, el2stats_hist_lo(b),
			el2stats_hist_hi(b));
		for (slot = 1; slot <= EL2_NR_REASONS; slot++)
			if (by_reason[slot % EL2_NR_REASONS].count)
				fprintf(f, " %9" PRIu64,
					by_reason[slot % EL2_NR_REASONS].hist[b]);
		fprintf(f, " %9" PRIu64, all.hist[b]);
		print_bar(f, all.hist[b], most);
		fputc('\n', f);
	}
	if (first == EL2_HIST_BUCKETS)
		fprintf(f, "(no interval in EL2)\n");
}

int stats_text_print(FILE *f, const struct stats_report *r)
{
	print_header(f, r);
	if (print_times(f, r))
		return -1;
	print_unmatched(f, r);
	print_records(f, r);
	if (print_funcs(f, r, 0) || print_funcs(f, r, 1))
		return -1;
	stats_fw_print_text(f, &r->fw);
	print_histogram(f, r);
	stats_mmio_print_text(f, &r->mmio);
	stats_maint_print_text(f, &r->maint);
	return 0;
}
