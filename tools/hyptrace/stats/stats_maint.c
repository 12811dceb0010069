// SPDX-License-Identifier: GPL-2.0
/*
 * hyptrace stats: which TLB and cache maintenance the host made while the
 * hypervisor's window was open, per operation (stats_maint.h). The names
 * are the event table's own (MAINT_OPS in shared/hyp_events.h).
 */
#include <inttypes.h>
#include <string.h>

#include "hyptrace/compiler.h"
#include "hyp_events.h"
#include "stats_maint.h"

void stats_maint_init(struct maint_stats *m, const struct td_file *td)
{
	memset(m, 0, sizeof(*m));
	m->ev = tracedat_event_by_name(td, "hypervisor", "maint_run");
	if (!m->ev)
		return;
	m->op = format_print_find_field(m->ev, "op");
	m->count = format_print_find_field(m->ev, "count");
	m->ns = format_print_find_field(m->ev, "ns");
}

void stats_maint_feed(struct maint_stats *m, const struct td_record *rec)
{
	uint64_t op, count, ns;
	size_t i;

	if (!m->ev || rec->id != m->ev->id)
		return;
	/* A field the format lacks, or a short record: not counted */
	if (!m->op || !m->count || !m->ns ||
	    format_print_read_field(rec, m->op, &op) ||
	    format_print_read_field(rec, m->count, &count) ||
	    format_print_read_field(rec, m->ns, &ns))
		return;
	for (i = 0; i < m->nr && m->row[i].op != op; i++)
		;
	if (i == m->nr) {
		if (m->nr == MAINT_STATS_ROWS) {
			m->other++;
			return;
		}
		m->row[m->nr++].op = op;
	}
	m->row[i].runs++;
	m->row[i].ops += count;
	m->row[i].ns += ns;
}

#define MAINT_OP_NAME(value, name)	{ value, name },
static const struct {
	uint64_t op;
	const char *name;
} op_names[] = { MAINT_OPS(MAINT_OP_NAME) };
#undef MAINT_OP_NAME

static const char *op_name(uint64_t op, char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(op_names); i++)
		if (op_names[i].op == op)
			return op_names[i].name;
	snprintf(buf, len, "op 0x%" PRIx64, op);
	return buf;
}

void stats_maint_print_text(FILE *f, const struct maint_stats *m)
{
	char buf[32];
	size_t i;

	if (!m->nr)
		return;
	fprintf(f, "\nTLB and cache maintenance (maint_run) by operation:\n");
	fprintf(f, "  %-22s %10s %12s %14s\n", "operation", "runs", "operations",
		"run time ns");
	for (i = 0; i < m->nr; i++)
		fprintf(f, "  %-22s %10" PRIu64 " %12" PRIu64 " %14" PRIu64 "\n",
			op_name(m->row[i].op, buf, sizeof(buf)), m->row[i].runs,
			m->row[i].ops, m->row[i].ns);
	if (m->other)
		fprintf(f, "  (%" PRIu64 " runs of further operations)\n",
			m->other);
}

void stats_maint_print_json(FILE *f, const struct maint_stats *m)
{
	char buf[32];
	size_t i;

	if (!m->nr)
		return;
	fprintf(f, ",\n  \"maint\": [");
	for (i = 0; i < m->nr; i++)
		fprintf(f, "%s\n    {\"op\": \"%s\", \"encoding\": %" PRIu64
			", \"runs\": %" PRIu64 ", \"operations\": %" PRIu64
			", \"ns\": %" PRIu64 "}", i ? "," : "",
			op_name(m->row[i].op, buf, sizeof(buf)), m->row[i].op,
			m->row[i].runs, m->row[i].ops, m->row[i].ns);
	fprintf(f, "\n  ]");
}
