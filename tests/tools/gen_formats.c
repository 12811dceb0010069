// SPDX-License-Identifier: GPL-2.0
/*
 * The remote's tracefs text files, generated on the host. The format files
 * follow kernel/trace/trace_remote.c remote_event_format_show() (only
 * common_type as a common field, offsets the running sum of the sizes) fed
 * with what host-driver/events.c gives it for each HYPTRACE_EVENTS entry
 * (type and name strings, sizes, signedness, and a print fmt with
 * __print_symbolic() for symbolic values). header_page and header_event are
 * ring_buffer_print_page_header() and ring_buffer_print_entry_header().
 * The tests compare these with copies captured in a guest when they have
 * them (tests/tools/fixtures/).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_formats.h"
#include "hyp_events.h"

static struct gen_text gen_printf(const char *name, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static struct gen_text gen_printf(const char *name, const char *fmt, ...)
{
	struct gen_text t = { .name = strdup(name) };
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&t.text, fmt, ap);
	va_end(ap);
	if (n < 0 || !t.name) {
		fprintf(stderr, "gen_formats: out of memory\n");
		exit(2);
	}
	t.len = n;
	return t;
}

struct gen_text gen_header_page(unsigned int page_size)
{
	return gen_printf("header_page",
		"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
		"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
		"\tfield: char overwrite;\toffset:8;\tsize:1;\tsigned:0;\n"
		"\tfield: char data;\toffset:16;\tsize:%u;\tsigned:0;\n",
		page_size - 16);
}

struct gen_text gen_header_event(void)
{
	return gen_printf("header_event",
		"# compressed entry header\n"
		"\ttype_len    :    5 bits\n"
		"\ttime_delta  :   27 bits\n"
		"\tarray       :   32 bits\n"
		"\n"
		"\tpadding     : type == 29\n"
		"\ttime_extend : type == 30\n"
		"\ttime_stamp : type == 31\n"
		"\tdata max type_len  == 28\n");
}

/* The field lines and print fmt, as events.c builds them */
#define IS_SIGNED(type)		((type)-1 < (type)1)
#define HE_FIELD(type, name)						\
	n += snprintf(fields + n, sizeof(fields) - n,			\
		      "\tfield:%s %s;\toffset:%u;\tsize:%zu;\tsigned:%d;\n", \
		      #type, #name, off, sizeof(type), IS_SIGNED(type)); \
	off += sizeof(type);
#define HE_REC(name)		"REC->" #name
#define HE_SYM_FMT(val, str)	", { " #val ", " #str " }"
#define HE_SYMBOLIC(name, TABLE)					\
	"__print_symbolic(REC->" #name TABLE(HE_SYM_FMT) ")"
#define HE_PRINT(fmt, args...)	"\"" fmt "\"" HE_ARGS(args)
#define HE_ARGS(args...)						\
	HE_ARGS_N(_, ##args, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)(args)
#define HE_ARGS_N(z, a, b, c, d, e, f, g, h, i, n, ...)	he_args##n
#define he_args0(a)		""
#define he_args1(a)		", " a
#define he_args2(a, b...)	", " a he_args1(b)
#define he_args3(a, b...)	", " a he_args2(b)
#define he_args4(a, b...)	", " a he_args3(b)
#define he_args5(a, b...)	", " a he_args4(b)
#define he_args6(a, b...)	", " a he_args5(b)
#define he_args7(a, b...)	", " a he_args6(b)
#define he_args8(a, b...)	", " a he_args7(b)
#define he_args9(a, b...)	", " a he_args8(b)

#define GEN_FORMAT(__name, __id, __fields, __print)			\
	do {								\
		char fields[4096];					\
		unsigned int off = 2;					\
		int n = 0;						\
									\
		__fields						\
		out[i++] = gen_printf(#__name,				\
			"name: %s\nID: %d\nformat:\n"			\
			"\tfield:unsigned short common_type;\t"		\
			"offset:0;\tsize:2;\tsigned:0;\n\n"		\
			"%s%sprint fmt: %s\n", #__name, __id, fields,	\
			n ? "\n" : "", __print);			\
	} while (0);

unsigned int gen_event_formats(struct gen_text **outp)
{
	struct gen_text *out = calloc(HYP_NR_EVENTS, sizeof(*out));
	unsigned int i = 0;

	if (!out) {
		fprintf(stderr, "gen_formats: out of memory\n");
		exit(2);
	}
	HYPTRACE_EVENTS(GEN_FORMAT)
	*outp = out;
	return i;
}

void gen_free_texts(struct gen_text *t, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		free(t[i].name);
		free(t[i].text);
	}
}
