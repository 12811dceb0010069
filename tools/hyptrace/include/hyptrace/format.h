/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Event format files (events/<system>/<event>/format) turned into struct
 * td_event for the trace.dat reader (format.c), and what the printer
 * (format_print.c, format_print_record()) needs to know beyond struct td_field.
 */
#ifndef HYPTRACE_TOOLS_FORMAT_H
#define HYPTRACE_TOOLS_FORMAT_H

#include <stddef.h>

#include "hyptrace/tracedat.h"

/* How a field's bytes are shown by the generic printer */
enum fmt_kind {
	FMT_NUM,	/* 1, 2, 4 or 8 bytes: a number */
	FMT_STR,	/* char name[N]: text up to the first NUL */
	FMT_BYTES,	/* anything else of fixed size: hex bytes */
	FMT_DYN_STR,	/* __data_loc / __rel_loc char[]: text elsewhere */
	FMT_DYN_BYTES,	/* __data_loc / __rel_loc of anything else */
};

struct fmt_event {
	struct td_event ev;	/* what tracedat_event_by_id() hands out */
	unsigned char *kinds;	/* enum fmt_kind, per field */
	unsigned char *rel;	/* per field: __rel_loc (from the field's end) */
	int hyp;		/* index in HYPTRACE_EVENTS + 1, or 0 */
};

static inline const struct fmt_event *format_of(const struct td_event *ev)
{
	return (const struct fmt_event *)ev;	/* ev is the first member */
}

/*
 * Parse the @len bytes of @text (one format file of @system). Returns an
 * event that lives until format_free(), or NULL with the reason in @err.
 */
struct fmt_event *format_parse(const char *system, const char *text, size_t len,
			    char *err, size_t errlen);
void format_free(struct fmt_event *fe);

/* HYPTRACE_EVENTS index + 1 of @system/@name, 0 if not one of ours */
int format_hyp_index(const char *system, const char *name);

#endif /* HYPTRACE_TOOLS_FORMAT_H */
