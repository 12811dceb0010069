/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `hyptrace stats`: what stats.c gathers from a trace.dat, handed to the
 * two printers, stats_text.c (tables for people) and stats_json.c (one
 * JSON document for programs). The EL2 figures themselves are computed by
 * lib/el2stats.c.
 */
#ifndef HYPTRACE_TOOLS_STATS_H
#define HYPTRACE_TOOLS_STATS_H

#include <stdint.h>
#include <stdio.h>

#include "hyptrace/el2stats.h"
#include "stats_maint.h"
#include "stats_mmio.h"
#include "hyptrace/tracedat.h"

/* One event type seen in the records */
struct stats_event {
	uint16_t id;
	char *system;			/* "?" when the file has no format */
	char *name;			/* printable ASCII, '?' for others */
	uint64_t total;
	uint64_t *per_cpu;
};

struct stats_cpu {
	uint64_t records;
	uint64_t first_ts, last_ts;	/* valid when records != 0 */
};

/* Firmware time per service (stats_fw.c) */
enum fw_service {
	/* decoded calls, fw_ns each (OP-TEE: per span) */
	FW_SVC_PSCI, FW_SVC_ARCH, FW_SVC_TRNG, FW_SVC_OPTEE,
	FW_SVC_WA1, FW_SVC_WA2, FW_SVC_WA3,	/* fw_workaround summaries */
	FW_NR_SERVICES,
};
#define FW_SVC_LAST_CALL	FW_SVC_OPTEE

struct stats_fw_row {
	uint64_t count, total_ns, max_ns;
	struct loghist lengths;		/* the decoded calls' fw_ns */
};

/* fw_scmi: a row per protocol and message, key protocol << 8 | msg */
struct stats_fw_scmi_row {
	uint16_t key;
	struct stats_fw_row row;
};

struct stats_fw {
	const struct td_event *call[FW_SVC_LAST_CALL + 1], *wa, *scmi;
	const struct td_field *call_ns[FW_SVC_LAST_CALL + 1];
	const struct td_field *wa_which, *wa_count, *wa_total, *wa_max;
	const struct td_field *scmi_protocol, *scmi_msg, *scmi_ns;
	uint64_t malformed;
	struct stats_fw_row row[FW_NR_SERVICES];
	struct stats_fw_scmi_row *scmi_rows;	/* sorted by key */
	size_t nr_scmi;
};

void stats_fw_find(struct stats_fw *fw, struct td_file *td);
/* 0, or -1 when out of memory */
int stats_fw_feed(struct stats_fw *fw, const struct td_record *rec);
void stats_fw_free(struct stats_fw *fw);
void stats_fw_print_text(FILE *f, const struct stats_fw *fw);
void stats_fw_print_json(FILE *f, const struct stats_fw *fw);

struct stats_report {
	const char *path;
	unsigned int nr_cpus;
	const char *trace_clock;	/* NULL when the file names none */
	char clock_buf[64];
	uint64_t records;
	uint64_t malformed;		/* enters/exits too short to read */
	uint64_t first_ts, last_ts;	/* valid when records != 0 */
	struct stats_cpu *cpus;
	struct stats_event *events;	/* by event ID */
	size_t nr_events;
	size_t top;			/* function IDs to list, 0 = all */
	struct el2_stats el2;
	struct mmio_stats mmio;		/* stats_mmio.c */
	struct maint_stats maint;	/* stats_maint.c */
	struct stats_fw fw;
};

/* 0, or -1 when out of memory (a partial output may have been written) */
int stats_text_print(FILE *f, const struct stats_report *r);
int stats_json_print(FILE *f, const struct stats_report *r);

#endif /* HYPTRACE_TOOLS_STATS_H */
