// SPDX-License-Identifier: GPL-2.0
/*
 * A record's fields and its text.
 *
 * The hypervisor's own events (system "hypervisor", names from
 * HYPTRACE_EVENTS in shared/hyp_events.h) print exactly as the kernel's
 * trace_remote shows them, because the printers here are generated from the
 * same table as the module's (host-driver/events.c): the table's format
 * string and arguments, with __print_symbolic() values looked up in the
 * table's symbol lists. The field values come from the format file in the
 * trace.dat, by name, so a file whose layout differs from this build's
 * still prints what it holds. Any other event prints as
 * "name field=value ...", numbers in decimal.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "hyptrace/compiler.h"
#include "hyptrace/format.h"
#include "hyp_events.h"

/* snprintf() into a buffer piece by piece; @pos counts what did not fit */
struct fmt_out {
	char *buf;
	size_t len;
	size_t pos;
};

static void out_printf(struct fmt_out *o, const char *fmt, ...)
	__printf(2, 3);

static void out_printf(struct fmt_out *o, const char *fmt, ...)
{
	size_t room = o->pos < o->len ? o->len - o->pos : 0;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(room ? o->buf + o->pos : NULL, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->pos += n;
}

const struct td_field *format_print_find_field(const struct td_event *ev,
				     const char *name)
{
	unsigned int i;

	for (i = 0; i < ev->nr_fields; i++) {
		if (!strcmp(ev->fields[i].name, name))
			return &ev->fields[i];
	}
	return NULL;
}

int format_print_read_field(const struct td_record *rec, const struct td_field *f,
		  uint64_t *val)
{
	uint64_t v = 0;
	unsigned int bits = f->size * 8;

	*val = 0;
	if (f->size != 1 && f->size != 2 && f->size != 4 && f->size != 8)
		return -1;
	if (f->offset > rec->size || f->size > rec->size - f->offset)
		return -1;
	/* the file is little-endian, as is every host we build for */
	memcpy(&v, rec->data + f->offset, f->size);
	if (f->is_signed && bits < 64 && (v >> (bits - 1)) & 1)
		v |= ~0ULL << bits;
	*val = v;
	return 0;
}

/* ---- the hypervisor's events, generated from HYPTRACE_EVENTS ---- */

struct hyp_sym {
	unsigned long val;
	const char *name;
};

/* "0x" and 16 hex digits: an unknown value of any field type */
#define HYP_SYM_LEN	19

/* __print_symbolic(): the name of @val, or @val in hex as the kernel does */
static const char *hyp_symbolic(unsigned long val, const struct hyp_sym *syms,
				char *buf)
{
	for (; syms->name; syms++) {
		if (syms->val == val)
			return syms->name;
	}
	snprintf(buf, HYP_SYM_LEN, "0x%lx", val);
	return buf;
}

/* Field @name of @rec by the file's format; -1 if it has none */
static int hyp_get(const struct td_record *rec, const struct td_event *ev,
		   const char *name, uint64_t *val)
{
	const struct td_field *f = format_print_find_field(ev, name);

	return f ? format_print_read_field(rec, f, val) : -1;
}

/*
 * The kernel's printf takes s64/u64 as long long; here they are long, so
 * 64-bit values are passed as the types the table's "%lld"/"%llu" expect.
 */
#define HE_ARG(x)							\
	_Generic((x), int64_t : (long long)(x),				\
		 uint64_t : (unsigned long long)(x), default : (x))
#define HE_REC(name)		HE_ARG(e.name)
#define HE_SYM_ENTRY(val, str)	{ val, str },
#define HE_SYMBOLIC(name, TABLE)					\
	hyp_symbolic(e.name, (const struct hyp_sym[]) {			\
			TABLE(HE_SYM_ENTRY) { 0, NULL }			\
		     }, (char [HYP_SYM_LEN]) { 0 })
#define HE_PRINT(fmt, args...)	out_printf(o, " " fmt, ##args)
#define HE_FIELD(type, name)						\
	missing |= hyp_get(rec, ev, #name, &v);				\
	e.name = (type)v;
/*
 * Read every field first: an event the file describes without one of them
 * prints nothing here and falls back to the generic printer.
 */
#define HYP_PRINT_FN(__name, __id, __fields, __print)			\
	static int hyp_print_##__name(const struct td_record *rec,	\
				      const struct td_event *ev,	\
				      struct fmt_out *o)		\
	{								\
		struct hyp_event_##__name e;				\
		int missing = 0;					\
		uint64_t v;						\
									\
		memset(&e, 0, sizeof(e));				\
		__fields						\
		if (missing)						\
			return -1;					\
		out_printf(o, "%s", #__name);				\
		__print;						\
		return 0;						\
	}
HYPTRACE_EVENTS(HYP_PRINT_FN)
#undef HYP_PRINT_FN
#undef HE_FIELD
#undef HE_PRINT
#undef HE_SYMBOLIC
#undef HE_REC

typedef int (*hyp_print_fn)(const struct td_record *rec,
			    const struct td_event *ev, struct fmt_out *o);

#define HYP_PRINT_ENTRY(name, id, fields, print)	hyp_print_##name,
static const hyp_print_fn hyp_printers[] = {
	HYPTRACE_EVENTS(HYP_PRINT_ENTRY)
};
#undef HYP_PRINT_ENTRY

/* ---- any other event ---- */

static void print_text(struct fmt_out *o, const uint8_t *p, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n && p[i]; i++)
		out_printf(o, "%c", p[i] >= 0x20 && p[i] < 0x7f ? p[i] : '.');
}

static void print_bytes(struct fmt_out *o, const uint8_t *p, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		out_printf(o, "%02x", p[i]);
}

static void print_field(struct fmt_out *o, const struct td_record *rec,
			const struct fmt_event *fe, unsigned int i)
{
	const struct td_field *f = &fe->ev.fields[i];
	uint32_t off = f->offset, n = f->size, loc;
	uint64_t v;

	out_printf(o, " %s=", f->name);
	if (off > rec->size || n > rec->size - off) {
		out_printf(o, "?");
		return;
	}
	switch (fe->kinds[i]) {
	case FMT_NUM:
		format_print_read_field(rec, f, &v);
		if (f->is_signed)
			out_printf(o, "%lld", (long long)v);
		else
			out_printf(o, "%llu", (unsigned long long)v);
		return;
	case FMT_STR:
		print_text(o, rec->data + off, n);
		return;
	case FMT_BYTES:
		print_bytes(o, rec->data + off, n);
		return;
	}
	/* dynamic: u32 with the length above the offset */
	memcpy(&loc, rec->data + off, sizeof(loc));
	n = loc >> 16;
	off = (loc & 0xffff) + (fe->rel[i] ? off + 4 : 0);
	if (off > rec->size || n > rec->size - off) {
		out_printf(o, "?");
		return;
	}
	if (fe->kinds[i] == FMT_DYN_STR)
		print_text(o, rec->data + off, n);
	else
		print_bytes(o, rec->data + off, n);
}

static void print_generic(struct fmt_out *o, const struct td_record *rec,
			  const struct fmt_event *fe)
{
	unsigned int i;

	out_printf(o, "%s", fe->ev.name);
	for (i = 0; i < fe->ev.nr_fields; i++) {
		if (strncmp(fe->ev.fields[i].name, "common_", 7))
			print_field(o, rec, fe, i);
	}
}

int format_print_record(const struct td_file *td, const struct td_record *rec,
		     char *buf, size_t len)
{
	const struct td_event *ev = tracedat_event_by_id(td, rec->id);
	struct fmt_out o = { .buf = buf, .len = len };
	unsigned long long us = rec->ts / 1000;

	if (len)
		buf[0] = '\0';
	/* trace_remote's prefix: CPU, then seconds.microseconds of the ns */
	out_printf(&o, "[%03u]\t%5llu.%06llu: ", rec->cpu, us / 1000000,
		   us % 1000000);
	if (!ev) {
		out_printf(&o, "UNKNOWN id=%u", rec->id);
	} else {
		const struct fmt_event *fe = format_of(ev);
		size_t start = o.pos;

		if (!fe->hyp || hyp_printers[fe->hyp - 1](rec, ev, &o)) {
			o.pos = start;
			print_generic(&o, rec, fe);
		}
	}
	return o.pos > INT32_MAX ? INT32_MAX : (int)o.pos;
}

int format_print_lost(unsigned int cpu, uint64_t lost, char *buf, size_t len)
{
	if (lost == TD_LOST_UNKNOWN)
		return snprintf(buf, len, "CPU:%u [LOST EVENTS]", cpu);
	return snprintf(buf, len, "CPU:%u [LOST %llu EVENTS]", cpu,
			(unsigned long long)lost);
}
