// SPDX-License-Identifier: GPL-2.0
/*
 * One trace.dat record as one Perfetto FtraceEvent, its fields read with
 * the event's format (hyptrace/tracedat.h, hyptrace/format.h):
 *
 *  - a GenericFtraceEvent by default: the event's name and every field
 *    but the common ones, numbers as numbers (signed as int_value,
 *    unsigned as uint_value), char arrays and __data_loc strings as text,
 *    other bytes in hex, as `hyptrace report` prints them;
 *  - Perfetto's typed sched_switch for sched_switch, so that a trace.dat
 *    with the host's events shows its scheduling on the CPU tracks;
 *  - Perfetto's typed host_mem_abort for host_abort (pKVM's shape), which
 *    the UI shows on the hyp slice it falls in.
 *
 * Which record becomes which, and the typed hypervisor events, are
 * perfetto_convert.c's business; the message layout is lib/pftrace.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hyptrace/format.h"
#include "perfetto.h"
#include "hyptrace/pftrace.h"

uint32_t perfetto_event_record_pid(const struct td_event *ev, const struct td_record *rec)
{
	const struct td_field *f = ev ? format_print_find_field(ev, "common_pid") : NULL;
	uint64_t v = 0;

	/*
	 * At offset 0 it is our trace.dat writer's alias of common_type, a
	 * task per event for KernelShark (lib/tracedat_write.c), not a pid
	 */
	if (f && f->offset)
		format_print_read_field(rec, f, &v);
	return (uint32_t)v;
}

/*
 * Where the bytes of field @i lie in @rec: for __data_loc and __rel_loc
 * fields, where the u32 in the payload points; for a char buf[] of size 0,
 * the rest of the record. 0, or -1 when that is outside the record.
 */
static int field_bytes(const struct td_record *rec, const struct td_event *ev,
		       unsigned int i, const uint8_t **p, uint32_t *n)
{
	const struct fmt_event *fe = format_of(ev);
	const struct td_field *f = &ev->fields[i];
	uint32_t off = f->offset, len = f->size, loc;

	if (off > rec->size || len > rec->size - off)
		return -1;
	if (fe->kinds[i] == FMT_DYN_STR || fe->kinds[i] == FMT_DYN_BYTES) {
		if (len != sizeof(loc))
			return -1;
		memcpy(&loc, rec->data + off, sizeof(loc));
		len = loc >> 16;
		off = (loc & 0xffff) + (fe->rel[i] ? off + sizeof(loc) : 0);
		if (off > rec->size || len > rec->size - off)
			return -1;
	} else if (!len) {
		len = rec->size - off;
	}
	*p = rec->data + off;
	*n = len;
	return 0;
}

/* Text up to the first NUL, control characters shown as '.' */
static void put_text(struct pb_buf *b, uint32_t field, const uint8_t *p,
		     uint32_t n)
{
	char *s;
	uint32_t i;

	for (i = 0; i < n && p[i]; i++)
		;
	n = i;
	s = malloc(n + 1);
	if (!s) {
		b->failed = 1;
		return;
	}
	for (i = 0; i < n; i++)
		s[i] = p[i] < 0x20 || p[i] == 0x7f ? '.' : (char)p[i];
	pbenc_bytes(b, field, s, n);
	free(s);
}

/* Bytes in hex, as `hyptrace report` prints them */
static void put_hex(struct pb_buf *b, uint32_t field, const uint8_t *p,
		    uint32_t n)
{
	static const char hex[] = "0123456789abcdef";
	char *s = malloc(2 * (size_t)n + 1);
	uint32_t i;

	if (!s) {
		b->failed = 1;
		return;
	}
	for (i = 0; i < n; i++) {
		s[2 * i] = hex[p[i] >> 4];
		s[2 * i + 1] = hex[p[i] & 0xf];
	}
	pbenc_bytes(b, field, s, 2 * (size_t)n);
	free(s);
}

/*
 * Field @i's value as protobuf field @str (text and bytes), @sint (signed
 * numbers) or @uint (unsigned ones); nothing when it is outside the record.
 */
static void put_value(struct pb_buf *b, const struct td_record *rec,
		      const struct td_event *ev, unsigned int i,
		      uint32_t str, uint32_t sint, uint32_t uint)
{
	const struct td_field *f = &ev->fields[i];
	const uint8_t *p;
	uint32_t n;
	uint64_t v;

	switch (format_of(ev)->kinds[i]) {
	case FMT_NUM:
		if (format_print_read_field(rec, f, &v))
			break;
		if (f->is_signed)
			pbenc_int(b, sint, (int64_t)v);
		else
			pbenc_uint(b, uint, v);
		break;
	case FMT_STR:
	case FMT_DYN_STR:
		if (!field_bytes(rec, ev, i, &p, &n))
			put_text(b, str, p, n);
		break;
	default:
		if (!field_bytes(rec, ev, i, &p, &n))
			put_hex(b, str, p, n);
		break;
	}
}

void perfetto_event_generic(struct pb_buf *b, const struct td_record *rec,
		    const struct td_event *ev, uint32_t pid)
{
	size_t mark = pftrace_event_begin(b, rec->ts, pid), gen, fld;
	char name[32];
	unsigned int i;

	if (ev) {
		gen = pftrace_generic_begin(b, ev->name);
		for (i = 0; i < ev->nr_fields; i++) {
			if (!strncmp(ev->fields[i].name, "common_", 7))
				continue;
			fld = pftrace_generic_field_begin(b, ev->fields[i].name);
			put_value(b, rec, ev, i, PFT_GENERIC_FIELD_STR_VALUE,
				  PFT_GENERIC_FIELD_INT_VALUE,
				  PFT_GENERIC_FIELD_UINT_VALUE);
			pbenc_end(b, fld);
		}
	} else {
		/* no format for its id: the id and the bytes */
		snprintf(name, sizeof(name), "unknown_event_%u", rec->id);
		gen = pftrace_generic_begin(b, name);
		fld = pftrace_generic_field_begin(b, "data");
		put_hex(b, PFT_GENERIC_FIELD_STR_VALUE, rec->data, rec->size);
		pbenc_end(b, fld);
	}
	pbenc_end(b, gen);
	pftrace_event_end(b, mark);
}

int perfetto_event_sched_switch(struct pb_buf *b, const struct td_record *rec,
			const struct td_event *ev, uint32_t pid)
{
	/* in the order of PFT_SCHED_SWITCH_*, 1 to 7 */
	static const char *const names[PFT_SCHED_SWITCH_NR_FIELDS] = {
		"prev_comm", "prev_pid", "prev_prio", "prev_state",
		"next_comm", "next_pid", "next_prio",
	};
	unsigned int idx[PFT_SCHED_SWITCH_NR_FIELDS], i, j;
	uint32_t field;
	size_t mark, ss;

	for (i = 0; i < PFT_SCHED_SWITCH_NR_FIELDS; i++) {
		for (j = 0; j < ev->nr_fields; j++)
			if (!strcmp(ev->fields[j].name, names[i]))
				break;
		/* the comms are text, the rest numbers */
		if (j == ev->nr_fields ||
		    (format_of(ev)->kinds[j] == FMT_NUM) == (i == 0 || i == 4))
			return -1;
		idx[i] = j;
	}
	mark = pftrace_event_begin(b, rec->ts, pid);
	ss = pbenc_begin(b, PFT_EVENT_SCHED_SWITCH);
	/* each is a string or an int: the same field number for every kind */
	for (i = 0; i < PFT_SCHED_SWITCH_NR_FIELDS; i++) {
		field = PFT_SCHED_SWITCH_PREV_COMM + i;
		put_value(b, rec, ev, idx[i], field, field, field);
	}
	pbenc_end(b, ss);
	pftrace_event_end(b, mark);
	return 0;
}

int perfetto_event_host_mem_abort(struct pb_buf *b, const struct td_record *rec,
			  const struct td_event *ev, uint32_t pid)
{
	const struct td_field *esr = format_print_find_field(ev, "esr");
	const struct td_field *ipa = format_print_find_field(ev, "ipa");
	uint64_t e, a;
	size_t mark, ab;

	if (!esr || !ipa || format_print_read_field(rec, esr, &e) ||
	    format_print_read_field(rec, ipa, &a))
		return -1;
	mark = pftrace_event_begin(b, rec->ts, pid);
	ab = pbenc_begin(b, PFT_EVENT_HOST_MEM_ABORT);
	pbenc_uint(b, PFT_HOST_MEM_ABORT_ESR, e);
	pbenc_uint(b, PFT_HOST_MEM_ABORT_ADDR, a);
	pbenc_end(b, ab);
	pftrace_event_end(b, mark);
	return 0;
}
