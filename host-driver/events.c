// SPDX-License-Identifier: GPL-2.0
/*
 * The hypervisor's events as the front ends show them: one struct
 * hyptrace_event per entry of HYPTRACE_EVENTS (shared/hyp_events.h), so that
 * the hypervisor's emitters and what tracefs shows cannot disagree.
 *
 * This is what <trace/define_remote_events.h> would produce from REMOTE_EVENT
 * declarations, generated from our own table instead: that header wants a
 * file of REMOTE_EVENT() lines inside the kernel tree, exists only in
 * kernels with trace_remote, and a second declaration of the events could
 * drift from the hypervisor's. remote.c copies the table into the struct
 * remote_event array trace_remote takes. Each event gets
 *   - a print function writing the name, then " ", the formatted arguments
 *     and "\n", as define_remote_events.h's do;
 *   - its payload fields for the format file;
 *   - a print_fmt string that libtraceevent can evaluate, which is why
 *     symbolic values become __print_symbolic() rather than a C call.
 */
#include <linux/build_bug.h>
#include <linux/kernel.h>
#include <linux/stddef.h>
#include <linux/trace_events.h>
#include <linux/trace_seq.h>

#include "compat.h"
#include "hyptrace.h"
#include "hyp_events.h"

/* Names longer than this are cut short in tracefs (REMOTE_EVENT_NAME_MAX) */
#define HYPTRACE_EVENT_NAME_MAX	30

/* "0x" and 16 hex digits: an unknown value of any field type */
#define SYM_BUF_LEN	19

/*
 * The name of @val in @syms (ended by a NULL name), or @val in hex in @buf
 * as __print_symbolic() shows a value it has no name for.
 */
static const char *hyptrace_symbolic(unsigned long val,
				     const struct trace_print_flags *syms,
				     char *buf, size_t len)
{
	for (; syms->name; syms++) {
		if (syms->mask == val)
			return syms->name;
	}
	snprintf(buf, len, "0x%lx", val);
	return buf;
}

/* Swallows the table columns a generator has no use for */
#define HE_UNUSED(columns...)

/*
 * The print functions. Each HE_SYMBOLIC() gets its own buffer, a compound
 * literal that lives until the print statement is done, so that two
 * symbolic fields in one event cannot overwrite each other's text.
 */
#define HE_REC(name)		__entry->name
#define HE_SYM_ENTRY(val, str)	{ val, str },
#define HE_SYMBOLIC(name, TABLE)					\
	hyptrace_symbolic(__entry->name,				\
			  (const struct trace_print_flags[]) {		\
				TABLE(HE_SYM_ENTRY) {}			\
			  }, (char [SYM_BUF_LEN]) {}, SYM_BUF_LEN)
#define HE_HAS_ARGS(args...)						\
	__COUNT_ARGS(, ##args, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0)
#define he_printk0(fmt)		trace_seq_puts(seq, " " fmt "\n")
#define he_printk1(fmt, args...)					\
	do {								\
		trace_seq_putc(seq, ' ');				\
		trace_seq_printf(seq, fmt, args);			\
		trace_seq_putc(seq, '\n');				\
	} while (0)
#define HE_PRINT(fmt, args...)						\
	CONCATENATE(he_printk, HE_HAS_ARGS(args))(fmt, ##args)
#define HE_PRINT_FN(__name, __id, __fields, __print)			\
	static void hyptrace_print_##__name(void *evt, struct trace_seq *seq) \
	{								\
		struct hyp_event_##__name __maybe_unused *__entry = evt; \
									\
		HE_UNUSED(__id, __fields)				\
		trace_seq_puts(seq, #__name);				\
		__print;						\
	}
HYPTRACE_EVENTS(HE_PRINT_FN)
#undef HE_PRINT_FN
#undef HE_PRINT
#undef HE_SYMBOLIC
#undef HE_REC

/*
 * The table, sorted by id as trace_remote_register() wants it. In it:
 *
 * - the payload fields, in the order and with the sizes the format file
 *   shows;
 * - the print_fmt strings: the quoted format, then ", " and each argument,
 *   e.g. "reason=%s func_id=0x%x", __print_symbolic(REC->reason,
 *   { 1, "hvc" }, ...), REC->func_id. Built by string concatenation rather
 *   than __stringify() so that the spacing is exactly this.
 *
 * A name longer than trace_remote keeps would be cut short in tracefs
 * without a word: it fails the build instead.
 */
#define HE_FIELD(__type, __field)					\
	{								\
		.type = #__type, .name = #__field,			\
		.size = sizeof(__type), .align = __alignof__(__type),	\
		.is_signed = is_signed_type(__type),			\
	},
#define HE_REC(name)		"REC->" #name
#define HE_SYM_FMT(val, str)	", { " #val ", " #str " }"
#define HE_SYMBOLIC(name, TABLE)					\
	"__print_symbolic(REC->" #name TABLE(HE_SYM_FMT) ")"
/* An event with more arguments fails to build until he_fmt_args10 exists */
#define he_fmt_args0()		""
#define he_fmt_args1(a)		", " a
#define he_fmt_args2(a, b...)	", " a he_fmt_args1(b)
#define he_fmt_args3(a, b...)	", " a he_fmt_args2(b)
#define he_fmt_args4(a, b...)	", " a he_fmt_args3(b)
#define he_fmt_args5(a, b...)	", " a he_fmt_args4(b)
#define he_fmt_args6(a, b...)	", " a he_fmt_args5(b)
#define he_fmt_args7(a, b...)	", " a he_fmt_args6(b)
#define he_fmt_args8(a, b...)	", " a he_fmt_args7(b)
#define he_fmt_args9(a, b...)	", " a he_fmt_args8(b)
#define HE_PRINT(fmt, args...)						\
	"\"" fmt "\"" CONCATENATE(he_fmt_args, COUNT_ARGS(args))(args)
#define HE_EVENT(__name, __id, __fields, __print)			\
	{								\
		.name		= #__name,				\
		.id		= (__id) + BUILD_BUG_ON_ZERO(sizeof(#__name) > \
						  HYPTRACE_EVENT_NAME_MAX), \
		.fields		= (struct trace_event_fields[]) {	\
			__fields					\
			{}						\
		},							\
		.print_fmt	= __print,				\
		.print		= hyptrace_print_##__name,		\
		.size		= sizeof(struct hyp_event_##__name),	\
	},
const struct hyptrace_event hyptrace_events[] = {
	HYPTRACE_EVENTS(HE_EVENT)
};

#undef HE_EVENT
#undef HE_PRINT
#undef HE_SYMBOLIC
#undef HE_REC
#undef HE_FIELD

const size_t hyptrace_nr_events = ARRAY_SIZE(hyptrace_events);
static_assert(ARRAY_SIZE(hyptrace_events) == HYP_NR_EVENTS);

/* Ids are 1..N in table order (shared/hyp_events.h checks it) */
const struct hyptrace_event *hyptrace_find_event(unsigned short id)
{
	if (!id || id > hyptrace_nr_events)
		return NULL;
	return &hyptrace_events[id - 1];
}
