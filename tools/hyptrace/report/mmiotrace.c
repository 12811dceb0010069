// SPDX-License-Identifier: GPL-2.0
/*
 * hyptrace report --mmiotrace: the mmio_read, mmio_write and
 * mmio_unhandled events of a trace.dat in the text format of Linux's
 * mmiotrace, version 20070824 (Documentation/trace/mmiotrace.rst; the
 * lines as kernel/trace/trace_mmiotrace.c prints them), which envytools'
 * and other existing tools read:
 *
 *	VERSION 20070824
 *	MAP secs.usecs map-id phys virt length pc pid
 *	R|W width secs.usecs map-id phys value pc pid
 *	UNKNOWN secs.usecs map-id phys b2,b1,b0 pc pid
 *	MARK secs.usecs text
 *
 * The hypervisor sees no ioremap(): each page first touched through a
 * virtual page gets a MAP line of its own, its map id counting from 1, so
 * that readers that want a mapping for every access find one. PID is 0,
 * as in Linux's own. An unhandled access has no opcode bytes to show
 * (00,00,00). Lost events are a MARK, as Linux writes them.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hyptrace/cmdline.h"
#include "mmiotrace.h"

#define MMIO_PAGE	((uint64_t)4096)

struct mmio_fields {
	const struct td_event *ev;
	const struct td_field *width, *addr, *value, *pc, *va;
};

struct mmio_map {
	uint64_t phys_page, virt_page;
};

struct mmio_state {
	struct mmio_fields rd, wr, un;
	struct mmio_map *maps;
	unsigned int nr_maps;
};

static void find_fields(const struct td_file *td, const char *name,
			struct mmio_fields *f)
{
	f->ev = tracedat_event_by_name(td, "hypervisor", name);
	if (!f->ev)
		return;
	f->width = format_print_find_field(f->ev, "width");
	f->addr = format_print_find_field(f->ev, "addr");
	f->value = format_print_find_field(f->ev, "value");
	f->pc = format_print_find_field(f->ev, "pc");
	f->va = format_print_find_field(f->ev, "va");
}

static void print_ts(FILE *out, uint64_t ns)
{
	fprintf(out, "%" PRIu64 ".%06" PRIu64, ns / 1000000000U,
		ns % 1000000000U / 1000U);
}

/* The map id of @phys through @virt, a MAP line printed the first time */
static int map_id(struct mmio_state *s, FILE *out, uint64_t ts,
		  uint64_t phys, uint64_t virt, unsigned int *id)
{
	uint64_t pp = phys & ~(MMIO_PAGE - 1), vp = virt & ~(MMIO_PAGE - 1);
	struct mmio_map *maps;
	unsigned int i;

	for (i = 0; i < s->nr_maps; i++) {
		if (s->maps[i].phys_page == pp && s->maps[i].virt_page == vp) {
			*id = i + 1;
			return 0;
		}
	}
	maps = realloc(s->maps, (s->nr_maps + 1) * sizeof(*maps));
	if (!maps)
		return -1;
	s->maps = maps;
	maps[s->nr_maps].phys_page = pp;
	maps[s->nr_maps].virt_page = vp;
	*id = ++s->nr_maps;
	fputs("MAP ", out);
	print_ts(out, ts);
	fprintf(out, " %u 0x%" PRIx64 " 0x%" PRIx64 " 0x%" PRIx64 " 0x0 0\n", *id,
		pp, vp, MMIO_PAGE);
	return 0;
}

/* Any field missing reads as 0: the format file is what tells */
static uint64_t field(const struct td_record *rec, const struct td_field *f)
{
	uint64_t v = 0;

	if (f)
		format_print_read_field(rec, f, &v);
	return v;
}

static int print_record(struct mmio_state *s, FILE *out,
			const struct td_record *rec)
{
	const struct mmio_fields *f;
	unsigned int id;
	uint64_t addr;

	if (rec->lost_before)
		fputs("MARK 0.000000 Lost events.\n", out);
	f = s->rd.ev && rec->id == s->rd.ev->id ? &s->rd :
	    s->wr.ev && rec->id == s->wr.ev->id ? &s->wr :
	    s->un.ev && rec->id == s->un.ev->id ? &s->un : NULL;
	if (!f)
		return 0;
	addr = field(rec, f->addr);
	if (map_id(s, out, rec->ts, addr, field(rec, f->va), &id))
		return -1;
	if (f == &s->un) {
		fputs("UNKNOWN ", out);
		print_ts(out, rec->ts);
		fprintf(out, " %u 0x%" PRIx64 " 00,00,00 0x%" PRIx64 " 0\n",
			id, addr, field(rec, f->pc));
		return 0;
	}
	fprintf(out, "%c %u ", f == &s->rd ? 'R' : 'W',
		(unsigned int)field(rec, f->width));
	print_ts(out, rec->ts);
	fprintf(out, " %u 0x%" PRIx64 " 0x%" PRIx64 " 0x%" PRIx64 " 0\n", id,
		addr, field(rec, f->value), field(rec, f->pc));
	return 0;
}

int mmiotrace_write(struct td_file *td, FILE *out, const char *file)
{
	struct mmio_state s = { .nr_maps = 0 };
	struct td_record rec;
	int r;

	find_fields(td, "mmio_read", &s.rd);
	find_fields(td, "mmio_write", &s.wr);
	find_fields(td, "mmio_unhandled", &s.un);
	if (!s.rd.ev && !s.wr.ev) {
		cmdline_err("report", "%s has no mmio_read or mmio_write event format: not a trace of a hypervisor that traces MMIO",
		       file);
		return HT_EXIT_FAIL;
	}
	fputs("VERSION 20070824\n", out);
	while ((r = tracedat_next(td, &rec)) > 0) {
		if (print_record(&s, out, &rec)) {
			free(s.maps);
			cmdline_err("report", "out of memory");
			return HT_EXIT_FAIL;
		}
	}
	free(s.maps);
	if (r < 0) {
		cmdline_err("report", "%s: %s", file, tracedat_error(td));
		return HT_EXIT_FAIL;
	}
	return HT_EXIT_OK;
}
