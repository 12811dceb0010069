// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: any bytes as a trace.dat, through everything report
 * does with one (td_open_mem, every record with td_next, its text with
 * td_format_record into a roomy and a cramped buffer, its fields, the
 * lost-event line). The reader may refuse the input; it may not crash,
 * leak, or read outside it (ASan + UBSan). Seeds are small files from
 * gen_trace, so the fuzzer starts from valid metadata and pages.
 */
#include <stddef.h>
#include <stdint.h>

#include "tracedat.h"

#define MAX_RECORDS	100000

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void poke_fields(const struct td_file *td, const struct td_record *rec)
{
	const struct td_event *ev = td_event_by_id(td, rec->id);
	unsigned int i;
	uint64_t v;

	if (!ev)
		return;
	for (i = 0; i < ev->nr_fields; i++)
		td_read_field(rec, &ev->fields[i], &v);
	td_find_field(ev, "reason");
	td_event_by_name(td, ev->system, ev->name);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct td_record rec;
	struct td_file *td;
	char err[256], line[4096], tiny[24];
	int n = 0;

	td = td_open_mem(data, size, err, sizeof(err));
	if (!td)
		return 0;
	td_trace_clock(td);
	while (n++ < MAX_RECORDS && td_next(td, &rec) > 0) {
		if (rec.lost_before)
			td_format_lost(rec.cpu, rec.lost_before, tiny,
				       sizeof(tiny));
		td_format_record(td, &rec, line, sizeof(line));
		td_format_record(td, &rec, tiny, sizeof(tiny));
		poke_fields(td, &rec);
	}
	td_error(td);
	td_close(td);
	return 0;
}
