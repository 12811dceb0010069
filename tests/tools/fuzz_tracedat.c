// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: any bytes as a trace.dat, through everything report
 * does with one (tracedat_open_mem, every record with tracedat_next, its text with
 * format_print_record into a roomy and a cramped buffer, its fields, the
 * lost-event line). The reader may refuse the input; it may not crash,
 * leak, or read outside it (ASan + UBSan). Seeds are small files from
 * gen_trace, so the fuzzer starts from valid metadata and pages.
 */
#include <stddef.h>
#include <stdint.h>

#include "hyptrace/tracedat.h"

#define MAX_RECORDS	100000

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void poke_fields(const struct td_file *td, const struct td_record *rec)
{
	const struct td_event *ev = tracedat_event_by_id(td, rec->id);
	unsigned int i;
	uint64_t v;

	if (!ev)
		return;
	for (i = 0; i < ev->nr_fields; i++)
		format_print_read_field(rec, &ev->fields[i], &v);
	format_print_find_field(ev, "reason");
	tracedat_event_by_name(td, ev->system, ev->name);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct td_record rec;
	struct td_file *td;
	char err[256], line[4096], tiny[24];
	int n = 0;

	td = tracedat_open_mem(data, size, err, sizeof(err));
	if (!td)
		return 0;
	tracedat_trace_clock(td);
	while (n++ < MAX_RECORDS && tracedat_next(td, &rec) > 0) {
		if (rec.lost_before)
			format_print_lost(rec.cpu, rec.lost_before, tiny,
				       sizeof(tiny));
		format_print_record(td, &rec, line, sizeof(line));
		format_print_record(td, &rec, tiny, sizeof(tiny));
		poke_fields(td, &rec);
	}
	tracedat_error(td);
	tracedat_close(td);
	return 0;
}
