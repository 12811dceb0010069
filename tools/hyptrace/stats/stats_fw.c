// SPDX-License-Identifier: GPL-2.0
/*
 * `hyptrace stats`: firmware time per service, from the hypervisor's
 * decoded firmware calls (hyp/core/fw_trace.c). Each fw_psci, fw_arch and
 * fw_trng record carries fw_ns, how long firmware kept the CPU for that
 * call; their counts, totals and lengths (percentiles from lib/loghist.c)
 * are summed per service. The Spectre workarounds come as per-CPU
 * summaries (fw_workaround: count, total_ns, max_ns), which sum to a
 * count, a total and a maximum but give no percentiles. An fw_optee record
 * is one OP-TEE request from its first call to its last return, fw_ns
 * summed over its RPCs; fw_scmi records are summed per SCMI protocol and
 * message ("SCMI 0x14/0x03": the clock protocol's CLOCK_ATTRIBUTES).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

static const char *const service_names[FW_NR_SERVICES] = {
	[FW_SVC_PSCI] = "PSCI",
	[FW_SVC_ARCH] = "ARCH",
	[FW_SVC_TRNG] = "TRNG",
	[FW_SVC_OPTEE] = "OPTEE",
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
		[FW_SVC_OPTEE] = "fw_optee",
	};
	const struct td_event *ev;
	int i;

	for (i = 0; i <= FW_SVC_LAST_CALL; i++) {
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
	ev = find_event(td, "fw_scmi");
	fw->scmi = ev;
	if (ev) {
		fw->scmi_protocol = format_print_find_field(ev, "protocol");
		fw->scmi_msg = format_print_find_field(ev, "msg");
		fw->scmi_ns = format_print_find_field(ev, "fw_ns");
	}
}

static void row_add(struct stats_fw_row *row, uint64_t ns)
{
	row->count++;
	row->total_ns += ns;
	if (ns > row->max_ns)
		row->max_ns = ns;
}

/* The row of SCMI message @key, added in order if new; NULL: no memory */
static struct stats_fw_row *scmi_row(struct stats_fw *fw, uint16_t key)
{
	struct stats_fw_scmi_row *rows;
	size_t i;

	for (i = 0; i < fw->nr_scmi && fw->scmi_rows[i].key <= key; i++)
		if (fw->scmi_rows[i].key == key)
			return &fw->scmi_rows[i].row;
	rows = realloc(fw->scmi_rows, (fw->nr_scmi + 1) * sizeof(*rows));
	if (!rows)
		return NULL;
	fw->scmi_rows = rows;
	memmove(&rows[i + 1], &rows[i], (fw->nr_scmi - i) * sizeof(*rows));
	memset(&rows[i], 0, sizeof(*rows));
	rows[i].key = key;
	fw->nr_scmi++;
	return &rows[i].row;
}

static int feed_scmi(struct stats_fw *fw, const struct td_record *rec)
{
	uint64_t protocol, msg, ns;
	struct stats_fw_row *row;

	if (!fw->scmi_protocol || !fw->scmi_msg || !fw->scmi_ns ||
	    format_print_read_field(rec, fw->scmi_protocol, &protocol) ||
	    format_print_read_field(rec, fw->scmi_msg, &msg) ||
	    format_print_read_field(rec, fw->scmi_ns, &ns) || protocol > 0xff ||
	    msg > 0xff) {
		fw->malformed++;
		return 0;
	}
	row = scmi_row(fw, protocol << 8 | msg);
	if (!row || loghist_add(&row->lengths, ns))
		return -1;
	row_add(row, ns);
	return 0;
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
	if (fw->scmi && rec->id == fw->scmi->id)
		return feed_scmi(fw, rec);
	for (i = 0; i <= FW_SVC_LAST_CALL; i++)
		if (fw->call[i] && rec->id == fw->call[i]->id)
			break;
	if (i > FW_SVC_LAST_CALL)
		return 0;
	if (!fw->call_ns[i] || format_print_read_field(rec, fw->call_ns[i], &ns)) {
		fw->malformed++;
		return 0;
	}
	row = &fw->row[i];
	if (loghist_add(&row->lengths, ns))
		return -1;
	row_add(row, ns);
	return 0;
}

void stats_fw_free(struct stats_fw *fw)
{
	size_t i;

	for (i = 0; i < FW_NR_SERVICES; i++)
		loghist_free(&fw->row[i].lengths);
	for (i = 0; i < fw->nr_scmi; i++)
		loghist_free(&fw->scmi_rows[i].row.lengths);
	free(fw->scmi_rows);
	fw->scmi_rows = NULL;
	fw->nr_scmi = 0;
}

static int has_percentiles(int svc)
{
	return svc <= FW_SVC_LAST_CALL;
}

/*
 * Every row in print order, with its name into @name: the services, the
 * SCMI messages after OPTEE; NULL after the last
 */
static const struct stats_fw_row *row_at(const struct stats_fw *fw, size_t n,
					 char *name, size_t size, int *pct)
{
	const struct stats_fw_scmi_row *s;

	if (n <= FW_SVC_LAST_CALL) {
		snprintf(name, size, "%s", service_names[n]);
		*pct = 1;
		return &fw->row[n];
	}
	n -= FW_SVC_LAST_CALL + 1;
	if (n < fw->nr_scmi) {
		s = &fw->scmi_rows[n];
		snprintf(name, size, "SCMI 0x%02x/0x%02x", s->key >> 8,
			 s->key & 0xff);
		*pct = 1;
		return &s->row;
	}
	n -= fw->nr_scmi;
	if (n >= FW_NR_SERVICES - FW_SVC_LAST_CALL - 1)
		return NULL;
	n += FW_SVC_LAST_CALL + 1;
	snprintf(name, size, "%s", service_names[n]);
	*pct = has_percentiles(n);
	return &fw->row[n];
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
	char name[32];
	int pct, any = 0;
	size_t n;

	for (n = 0; (row = row_at(fw, n, name, sizeof(name), &pct)); n++)
		any |= row->count != 0;
	if (!any)
		return;
	fprintf(f, "\nFirmware time per service (µs; fw_ns of the decoded calls, p50, p99 within %.1f%%; OPTEE per request, its RPCs included; SCMI per protocol/message; WORKAROUND_n from the per-CPU summaries: no percentiles)\n",
		100.0 / LOGHIST_ERR_DIV);
	fprintf(f, "  %-14s %10s %12s %12s %12s %12s\n", "service", "count",
		"total", "p50", "p99", "max");
	for (n = 0; (row = row_at(fw, n, name, sizeof(name), &pct)); n++) {
		if (!row->count)
			continue;
		fprintf(f, "  %-14s %10" PRIu64, name, row->count);
		put_us(f, row->total_ns);
		if (pct) {
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
	char name[32];
	int pct, first = 1;
	size_t n;

	fprintf(f, "  \"firmware\": {");
	for (n = 0; (row = row_at(fw, n, name, sizeof(name), &pct)); n++) {
		if (!row->count)
			continue;
		fprintf(f, "%s\n    \"%s\": {\"count\": %" PRIu64
			", \"total_ns\": %" PRIu64 ", \"max_ns\": %" PRIu64,
			first ? "" : ",", name, row->count,
			row->total_ns, row->max_ns);
		if (pct)
			fprintf(f, ", \"p50_ns\": %" PRIu64 ", \"p99_ns\": %" PRIu64,
				loghist_quantile(&row->lengths, 50),
				loghist_quantile(&row->lengths, 99));
		fprintf(f, "}");
		first = 0;
	}
	fprintf(f, "%s},\n  \"firmware_malformed_records\": %" PRIu64 ",\n",
		first ? "" : "\n  ", fw->malformed);
}
