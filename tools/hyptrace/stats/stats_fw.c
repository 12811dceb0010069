// SPDX-License-Identifier: GPL-2.0
/*
 * `hyptrace stats`: firmware time per service, from the hypervisor's
 * decoded firmware calls (hyp/core/fw_trace.c). Each fw_psci, fw_arch and
 * fw_trng record carries fw_ns, how long firmware kept the CPU for that
 * call; their counts, totals and lengths (percentiles from lib/loghist.c)
 * are summed per service. The Spectre workarounds come as per-CPU
 * summaries (fw_workaround: count, total_ns, max_ns), which sum to a
 * count, a total and a maximum but give no percentiles.
 */
#include <inttypes.h>
#include <string.h>

#include "stats.h"

static const char *const service_names[FW_NR_SERVICES] = {
	[FW_SVC_PSCI] = "PSCI",
	[FW_SVC_ARCH] = "ARCH",
	[FW_SVC_TRNG] = "TRNG",
	[FW_SVC_WA1] = "WORKAROUND_1",
	[FW_SVC_WA2] = "WORKAROUND_2",
	[FW_SVC_WA3] = "WORKAROUND_3",
};

static const struct td_event *find_event(struct td_file *td, const char *name)
{
	const struct td_event *ev = tracedat_event_by_name(td, "hypervisor", name);

	return ev ? ev : tracedat_event_by_name(td, NULL, name);
}

void stats_fw_find(struct stats_fw *fw, struct td_file *td)
{
	static const char *const calls[] = {
		[FW_SVC_PSCI] = "fw_psci",
		[FW_SVC_ARCH] = "fw_arch",
		[FW_SVC_TRNG] = "fw_trng",
	};
	const struct td_event *ev;
	int i;

	for (i = 0; i <= FW_SVC_TRNG; i++) {
		ev = find_event(td, calls[i]);
		fw->call[i] = ev;
		fw->call_ns[i] = ev ? format_print_find_field(ev, "fw_ns") : NULL;
	}
	ev = find_event(td, "fw_workaround");
	fw->wa = ev;
	if (ev) {
		fw->wa_which = format_print_find_field(ev, "which");
		fw->wa_count = format_print_find_field(ev, "count");
		fw->wa_total = format_print_find_field(ev, "total_ns");
		fw->wa_max = format_print_find_field(ev, "max_ns");
	}
}

static int feed_workaround(struct stats_fw *fw, const struct td_record *rec)
{
	uint64_t which, count, total, max;
	struct stats_fw_row *row;

	if (!fw->wa_which || !fw->wa_count || !fw->wa_total || !fw->wa_max ||
	    format_print_read_field(rec, fw->wa_which, &which) ||
	    format_print_read_field(rec, fw->wa_count, &count) ||
	    format_print_read_field(rec, fw->wa_total, &total) ||
	    format_print_read_field(rec, fw->wa_max, &max) || which < 1 || which > 3) {
		fw->malformed++;
		return 0;
	}
	row = &fw->row[FW_SVC_WA1 + which - 1];
	row->count += count;
	row->total_ns += total;
	if (max > row->max_ns)
		row->max_ns = max;
	return 0;
}

int stats_fw_feed(struct stats_fw *fw, const struct td_record *rec)
{
	struct stats_fw_row *row;
	uint64_t ns;
	int i;

	if (fw->wa && rec->id == fw->wa->id)
		return feed_workaround(fw, rec);
	for (i = 0; i <= FW_SVC_TRNG; i++)
		if (fw->call[i] && rec->id == fw->call[i]->id)
			break;
	if (i > FW_SVC_TRNG)
		return 0;
	if (!fw->call_ns[i] || format_print_read_field(rec, fw->call_ns[i], &ns)) {
		fw->malformed++;
		return 0;
	}
	row = &fw->row[i];
	if (loghist_add(&row->lengths, ns))
		return -1;
	row->count++;
	row->total_ns += ns;
	if (ns > row->max_ns)
		row->max_ns = ns;
	return 0;
}

void stats_fw_free(struct stats_fw *fw)
{
	int i;

	for (i = 0; i < FW_NR_SERVICES; i++)
		loghist_free(&fw->row[i].lengths);
}

static int has_percentiles(int svc)
{
	return svc <= FW_SVC_TRNG;
}

/* ns as µs with three decimals */
static void put_us(FILE *f, uint64_t ns)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRIu64 ".%03" PRIu64, ns / 1000,
		 ns % 1000);
	fprintf(f, " %12s", buf);
}

void stats_fw_print_text(FILE *f, const struct stats_fw *fw)
{
	const struct stats_fw_row *row;
	int i, any = 0;

	for (i = 0; i < FW_NR_SERVICES; i++)
		any |= fw->row[i].count != 0;
	if (!any)
		return;
	fprintf(f, "\nFirmware time per service (µs; fw_ns of the decoded calls, p50, p99 within %.1f%%; WORKAROUND_n from the per-CPU summaries: no percentiles)\n",
		100.0 / LOGHIST_ERR_DIV);
	fprintf(f, "  %-14s %10s %12s %12s %12s %12s\n", "service", "count",
		"total", "p50", "p99", "max");
	for (i = 0; i < FW_NR_SERVICES; i++) {
		row = &fw->row[i];
		if (!row->count)
			continue;
		fprintf(f, "  %-14s %10" PRIu64, service_names[i], row->count);
		put_us(f, row->total_ns);
		if (has_percentiles(i)) {
			put_us(f, loghist_quantile(&row->lengths, 50));
			put_us(f, loghist_quantile(&row->lengths, 99));
		} else {
			fprintf(f, " %12s %12s", "-", "-");
		}
		put_us(f, row->max_ns);
		fprintf(f, "\n");
	}
	if (fw->malformed)
		fprintf(f, "  (%" PRIu64 " firmware-call records too short to read, left out)\n",
			fw->malformed);
}

void stats_fw_print_json(FILE *f, const struct stats_fw *fw)
{
	const struct stats_fw_row *row;
	int i, first = 1;

	fprintf(f, "  \"firmware\": {");
	for (i = 0; i < FW_NR_SERVICES; i++) {
		row = &fw->row[i];
		if (!row->count)
			continue;
		fprintf(f, "%s\n    \"%s\": {\"count\": %" PRIu64
			", \"total_ns\": %" PRIu64 ", \"max_ns\": %" PRIu64,
			first ? "" : ",", service_names[i], row->count,
			row->total_ns, row->max_ns);
		if (has_percentiles(i))
			fprintf(f, ", \"p50_ns\": %" PRIu64 ", \"p99_ns\": %" PRIu64,
				loghist_quantile(&row->lengths, 50),
				loghist_quantile(&row->lengths, 99));
		fprintf(f, "}");
		first = 0;
	}
	fprintf(f, "%s},\n  \"firmware_malformed_records\": %" PRIu64 ",\n",
		first ? "" : "\n  ", fw->malformed);
}
