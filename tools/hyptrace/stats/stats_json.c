// SPDX-License-Identifier: GPL-2.0
/*
 * `hyptrace stats --json`: the figures of the text tables as one JSON
 * document, for tests and scripts. The keys are stable and listed in
 * hyptrace-stats(1) (Documentation/man/hyptrace-stats.1.adoc); all times are integer ns but the means.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "stats.h"

/* Length of the valid UTF-8 sequence at @p, or 0 if it is not one */
static int utf8_len(const unsigned char *p)
{
	int n, i;

	if (*p >= 0xc2 && *p <= 0xdf)
		n = 2;
	else if (*p >= 0xe0 && *p <= 0xef)
		n = 3;
	else if (*p >= 0xf0 && *p <= 0xf4)
		n = 4;
	else
		return 0;
	for (i = 1; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	/* overlong forms, surrogates, beyond U+10FFFF */
	if ((p[0] == 0xe0 && p[1] < 0xa0) || (p[0] == 0xed && p[1] > 0x9f) ||
	    (p[0] == 0xf0 && p[1] < 0x90) || (p[0] == 0xf4 && p[1] > 0x8f))
		return 0;
	return n;
}

/* @s as a JSON string; bytes that are not UTF-8 become U+FFFD */
static void json_string(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	int n;

	fputc('"', f);
	while (*p) {
		n = *p < 0x80 ? 1 : utf8_len(p);
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(f, "\\u%04x", *p);
		else if (n)
			fwrite(p, 1, (size_t)n, f);
		else
			fputs("\\ufffd", f);
		p += n ? n : 1;
	}
	fputc('"', f);
}

static void json_lost(FILE *f, const struct stats_report *r, int cpu)
{
	uint64_t markers = 0, events = 0, unknown = 0;
	unsigned int c;

	for (c = 0; c < r->nr_cpus; c++) {
		const struct el2_cpu *ec = &r->el2.cpus[c];

		if (cpu >= 0 && (unsigned int)cpu != c)
			continue;
		markers += ec->lost_markers;
		events += ec->lost_events;
		unknown += ec->lost_unknown;
	}
	fprintf(f, "\"lost\": {\"markers\": %" PRIu64 ", \"events\": %" PRIu64
		", \"unknown_markers\": %" PRIu64 "}", markers, events, unknown);
}

static void json_unmatched(FILE *f, const struct el2_summary *s)
{
	static const char *const enter_keys[EL2_NR_UNMATCHED_ENTER] = {
		[EL2_ENTER_THEN_ENTER] = "enter_then_enter",
		[EL2_ENTER_CUT_BY_LOST] = "enter_cut_by_lost",
		[EL2_ENTER_OPEN_AT_END] = "enter_open_at_end",
		[EL2_ENTER_TIME_BACKWARDS] = "enter_time_backwards",
	};
	static const char *const exit_keys[EL2_NR_UNMATCHED_EXIT] = {
		[EL2_EXIT_NO_ENTER] = "exit_no_enter",
		[EL2_EXIT_TIME_BACKWARDS] = "exit_time_backwards",
	};
	uint64_t enters = 0, exits = 0;
	int i;

	fprintf(f, "\"unmatched\": {");
	for (i = 0; i < EL2_NR_UNMATCHED_ENTER; i++) {
		fprintf(f, "\"%s\": %" PRIu64 ", ", enter_keys[i],
			s->unmatched_enter[i]);
		enters += s->unmatched_enter[i];
	}
	for (i = 0; i < EL2_NR_UNMATCHED_EXIT; i++) {
		fprintf(f, "\"%s\": %" PRIu64 ", ", exit_keys[i],
			s->unmatched_exit[i]);
		exits += s->unmatched_exit[i];
	}
	fprintf(f, "\"enters\": %" PRIu64 ", \"exits\": %" PRIu64 "}", enters,
		exits);
}

static void json_histogram(FILE *f, const struct el2_summary *s)
{
	const char *sep = "";
	unsigned int b;

	fprintf(f, "\"histogram\": [");
	for (b = 0; b < EL2_HIST_BUCKETS; b++) {
		if (!s->hist[b])
			continue;
		fprintf(f, "%s{\"bucket\": %u, \"lo_ns\": %" PRIu64
			", \"hi_ns\": %" PRIu64 ", \"count\": %" PRIu64 "}",
			sep, b, el2stats_hist_lo(b), el2stats_hist_hi(b), s->hist[b]);
		sep = ", ";
	}
	fprintf(f, "]");
}

static int json_summary(FILE *f, const struct stats_report *r, int cpu,
			int reason)
{
	struct el2_summary s;

	if (el2stats_summarize(&r->el2, cpu, reason, &s))
		return -1;
	fprintf(f, "{\"count\": %" PRIu64 ", \"total_ns\": %" PRIu64
		", \"mean_ns\": %.3f, \"min_ns\": %" PRIu64 ", \"p50_ns\": %"
		PRIu64 ", \"p99_ns\": %" PRIu64 ", \"max_ns\": %" PRIu64 ", ",
		s.count, s.total_ns, s.mean_ns, s.min_ns, s.p50_ns, s.p99_ns,
		s.max_ns);
	json_unmatched(f, &s);
	fprintf(f, ", ");
	json_histogram(f, &s);
	fprintf(f, "}");
	return 0;
}

/* "el2": ..., "reasons": {...} of one CPU, or all with @cpu -1 */
static int json_el2(FILE *f, const struct stats_report *r, int cpu,
		    const char *indent)
{
	unsigned int slot;

	fprintf(f, "%s\"el2\": ", indent);
	if (json_summary(f, r, cpu, -1))
		return -1;
	fprintf(f, ",\n%s\"reasons\": {", indent);
	for (slot = 1; slot <= EL2_NR_REASONS; slot++) {
		unsigned int s = slot % EL2_NR_REASONS;

		fprintf(f, "%s\n%s  \"%s\": ", slot > 1 ? "," : "", indent,
			el2stats_reason_name(s));
		if (json_summary(f, r, cpu, (int)s))
			return -1;
	}
	fprintf(f, "\n%s}", indent);
	return 0;
}

static int json_cpus(FILE *f, const struct stats_report *r)
{
	unsigned int cpu;

	fprintf(f, "  \"cpus\": [");
	for (cpu = 0; cpu < r->nr_cpus; cpu++) {
		const struct stats_cpu *c = &r->cpus[cpu];

		fprintf(f, "%s\n    {\"cpu\": %u, \"records\": %" PRIu64
			", \"first_ts\": %" PRIu64 ", \"last_ts\": %" PRIu64
			",\n     ", cpu ? "," : "", cpu, c->records,
			c->records ? c->first_ts : 0,
			c->records ? c->last_ts : 0);
		json_lost(f, r, (int)cpu);
		fprintf(f, ",\n");
		if (json_el2(f, r, (int)cpu, "     "))
			return -1;
		fprintf(f, "}");
	}
	fprintf(f, "\n  ],\n  \"all\": {\"records\": %" PRIu64 ", ",
		r->records);
	json_lost(f, r, -1);
	fprintf(f, ",\n");
	if (json_el2(f, r, -1, "    "))
		return -1;
	fprintf(f, "},\n");
	return 0;
}

static int json_funcs(FILE *f, const struct stats_report *r, int by_time)
{
	struct el2_func *funcs;
	char name[48];
	long n, i;

	n = el2stats_top_funcs(&r->el2, by_time, r->top, &funcs);
	if (n < 0)
		return -1;
	fprintf(f, "    \"%s\": [", by_time ? "by_time" : "by_count");
	for (i = 0; i < n; i++) {
		const struct el2_func *fn = &funcs[i];
		unsigned int slot = el2stats_reason_slot(fn->reason);

		fprintf(f, "%s\n      {\"reason\": \"%s\", \"func_id\": %" PRIu32
			", \"func_id_hex\": \"0x%08" PRIx32 "\", \"name\": ",
			i ? "," : "", el2stats_reason_name(slot), fn->func_id,
			fn->func_id);
		json_string(f, el2names_func_name(slot, fn->func_id, name,
					     sizeof(name)));
		fprintf(f, ", \"count\": %" PRIu64 ", \"total_ns\": %" PRIu64
			", \"mean_ns\": %.3f, \"max_ns\": %" PRIu64 "}",
			fn->count, fn->total_ns,
			(double)fn->total_ns / (double)fn->count, fn->max_ns);
	}
	fprintf(f, "%s]", n ? "\n    " : "");
	free(funcs);
	return 0;
}

static void json_funcs_other(FILE *f, const struct el2_func *o)
{
	fprintf(f, "    \"unlisted\": {\"count\": %" PRIu64 ", \"total_ns\": %"
		PRIu64 ", \"max_ns\": %" PRIu64 "}", o->count, o->total_ns,
		o->max_ns);
}

static void json_events(FILE *f, const struct stats_report *r)
{
	unsigned int cpu;
	size_t e;

	fprintf(f, "  \"events\": [");
	for (e = 0; e < r->nr_events; e++) {
		const struct stats_event *ev = &r->events[e];

		fprintf(f, "%s\n    {\"id\": %u, \"system\": ", e ? "," : "",
			ev->id);
		json_string(f, ev->system);
		fprintf(f, ", \"name\": ");
		json_string(f, ev->name);
		fprintf(f, ", \"count\": %" PRIu64 ", \"per_cpu\": [",
			ev->total);
		for (cpu = 0; cpu < r->nr_cpus; cpu++)
			fprintf(f, "%s%" PRIu64, cpu ? ", " : "",
				ev->per_cpu[cpu]);
		fprintf(f, "]}");
	}
	fprintf(f, "%s]", r->nr_events ? "\n  " : "");
}

int stats_json_print(FILE *f, const struct stats_report *r)
{
	fprintf(f, "{\n  \"version\": 1,\n  \"file\": ");
	json_string(f, r->path);
	fprintf(f, ",\n  \"nr_cpus\": %u,\n  \"trace_clock\": ", r->nr_cpus);
	if (r->trace_clock)
		json_string(f, r->trace_clock);
	else
		fprintf(f, "null");
	/* what p50_ns and p99_ns may be off by, as a share of the exact value */
	fprintf(f, ",\n  \"time_unit\": \"ns\",\n  \"percentile_rel_error\": %.8f",
		1.0 / LOGHIST_ERR_DIV);
	fprintf(f, ",\n  \"records\": %" PRIu64
		",\n  \"malformed_records\": %" PRIu64 ",\n  \"first_ts\": %"
		PRIu64 ",\n  \"last_ts\": %" PRIu64 ",\n  \"span_ns\": %" PRIu64
		",\n", r->records, r->malformed,
		r->records ? r->first_ts : 0, r->records ? r->last_ts : 0,
		r->records ? r->last_ts - r->first_ts : 0);
	if (json_cpus(f, r))
		return -1;
	fprintf(f, "  \"functions\": {\n");
	if (json_funcs(f, r, 0))
		return -1;
	fprintf(f, ",\n");
	if (json_funcs(f, r, 1))
		return -1;
	fprintf(f, ",\n");
	json_funcs_other(f, &r->el2.funcs_other);
	fprintf(f, "\n  },\n");
	stats_fw_print_json(f, &r->fw);
	json_events(f, r);
	stats_mmio_print_json(f, &r->mmio);
	stats_maint_print_json(f, &r->maint);
	fprintf(f, "\n}\n");
	return 0;
}
