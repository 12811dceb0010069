// SPDX-License-Identifier: GPL-2.0
/*
 * Parsing an event's format file, as tracefs prints it:
 *
 *	name: hyp_enter
 *	ID: 1
 *	format:
 *		field:unsigned short common_type;	offset:0;	size:2;	signed:0;
 *
 *		field:u16 reason;	offset:2;	size:2;	signed:0;
 *
 *	print fmt: "reason=%s ...", ...
 *
 * Only what a reader needs is kept: the name, the ID, each field's name,
 * offset, size and signedness (and whether it is text or an array, for the
 * generic printer), and the print fmt text. The text may come from any
 * file, so every number is range-checked and anything unexpected is an
 * error naming the line, never a guess.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hyptrace/compiler.h"
#include "hyptrace/errmsg.h"
#include "hyptrace/format.h"
#include "hyp_events.h"

/* More than any real event has; bounds the work a hostile file can ask for */
#define FMT_MAX_FIELDS		1024
#define FMT_MAX_OFFSET		65536U

/* The names of HYPTRACE_EVENTS, in table order */
#define HYP_NAME(name, id, fields, print)	#name,
static const char *const hyp_names[] = { HYPTRACE_EVENTS(HYP_NAME) };
#undef HYP_NAME

int format_hyp_index(const char *system, const char *name)
{
	size_t i;

	if (strcmp(system, "hypervisor"))
		return 0;
	for (i = 0; i < ARRAY_SIZE(hyp_names); i++) {
		if (!strcmp(name, hyp_names[i]))
			return i + 1;
	}
	return 0;
}

static char *skip_space(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

static void trim_end(char *s)
{
	size_t n = strlen(s);

	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
}

/* A decimal number up to @max after "@key:" in @line; -1 if absent */
static int field_number(const char *line, const char *key, unsigned long max,
			unsigned long *val)
{
	const char *p = strstr(line, key);
	char *end;

	if (!p)
		return -1;
	p += strlen(key);
	if (!isdigit((unsigned char)*p))
		return -2;
	errno = 0;
	*val = strtoul(p, &end, 10);
	if (errno || *val > max || *end != ';')
		return -2;
	return 0;
}

/*
 * "field:<declaration>;\toffset:N;\tsize:N;\tsigned:N;" into @f and its
 * kind. The field's name is the last identifier of the declaration, after
 * any [N] suffix is taken off.
 */
static int parse_field(char *line, struct td_field *f, unsigned char *kind,
		       unsigned char *rel, char *err, size_t errlen)
{
	char *decl = line + strlen("field:");
	char *semi = strchr(decl, ';');
	char *name, *end;
	unsigned long off, size, sign = 0;
	int is_array = 0, r;

	if (!semi)
		return errmsg(err, errlen, "no ';' after the field name");
	*semi = '\0';
	trim_end(decl);
	end = decl + strlen(decl);
	if (end > decl && end[-1] == ']') {
		while (end > decl && *end != '[')
			end--;
		if (*end != '[')
			return errmsg(err, errlen, "unbalanced ']' in a field");
		*end = '\0';
		trim_end(decl);
		end = decl + strlen(decl);
		is_array = 1;
	}
	name = end;
	while (name > decl && (isalnum((unsigned char)name[-1]) ||
			       name[-1] == '_'))
		name--;
	if (name == end)
		return errmsg(err, errlen, "a field has no name");
	if (name == decl || !isspace((unsigned char)name[-1]))
		return errmsg(err, errlen, "field %s has no type", name);

	r = field_number(semi + 1, "offset:", FMT_MAX_OFFSET, &off);
	if (!r)
		r = field_number(semi + 1, "size:", FMT_MAX_OFFSET, &size);
	if (r)
		return errmsg(err, errlen, "field %s: %s offset or size", name,
				r == -1 ? "no" : "bad");
	/* old kernels print no signed: */
	if (field_number(semi + 1, "signed:", 1, &sign) == -2)
		return errmsg(err, errlen, "field %s: bad signed:", name);

	f->offset = off;
	f->size = size;
	f->is_signed = sign;
	*rel = 0;
	if (strstr(decl, "__data_loc") || strstr(decl, "__rel_loc")) {
		*rel = strstr(decl, "__rel_loc") != NULL;
		*kind = strstr(decl, "char") ? FMT_DYN_STR : FMT_DYN_BYTES;
		if (size != 4)
			return errmsg(err, errlen,
					"field %s: a dynamic field of %lu bytes",
					name, size);
	} else if (is_array) {
		*kind = strstr(decl, "char") ? FMT_STR : FMT_BYTES;
	} else if (size == 1 || size == 2 || size == 4 || size == 8) {
		*kind = FMT_NUM;
	} else {
		*kind = FMT_BYTES;
	}
	f->name = strdup(name);
	if (!f->name)
		return errmsg(err, errlen, "out of memory");
	return 0;
}

static int add_field(struct fmt_event *fe, char *line, char *err,
		     size_t errlen)
{
	struct td_field *fields = (struct td_field *)fe->ev.fields;
	unsigned int n = fe->ev.nr_fields;

	if (n == FMT_MAX_FIELDS)
		return errmsg(err, errlen, "more than %d fields",
				FMT_MAX_FIELDS);
	/* grow in powers of two */
	if (!(n & (n - 1))) {
		unsigned int cap = n ? 2 * n : 4;
		void *p;

		p = realloc(fields, cap * sizeof(*fields));
		if (!p)
			return errmsg(err, errlen, "out of memory");
		fields = p;
		fe->ev.fields = fields;
		p = realloc(fe->kinds, cap);
		if (!p)
			return errmsg(err, errlen, "out of memory");
		fe->kinds = p;
		p = realloc(fe->rel, cap);
		if (!p)
			return errmsg(err, errlen, "out of memory");
		fe->rel = p;
	}
	memset(&fields[n], 0, sizeof(fields[n]));
	if (parse_field(line, &fields[n], &fe->kinds[n], &fe->rel[n], err,
			errlen))
		return -1;
	fe->ev.nr_fields = n + 1;
	return 0;
}

/* Where parse_line() is in the file: the lines come in this order */
enum fmt_state { ST_NAME, ST_ID, ST_FORMAT, ST_FIELDS, ST_DONE };

static int parse_line(struct fmt_event *fe, char *line, enum fmt_state *st,
		      char *err, size_t errlen)
{
	unsigned long id;
	char *s = skip_space(line), *end;

	trim_end(s);
	if (!*s)
		return 0;
	if (*st == ST_NAME && !strncmp(s, "name:", 5)) {
		s = skip_space(s + 5);
		if (!*s)
			return errmsg(err, errlen, "empty name");
		fe->ev.name = strdup(s);
		if (!fe->ev.name)
			return errmsg(err, errlen, "out of memory");
		*st = ST_ID;
	} else if (*st == ST_ID && !strncmp(s, "ID:", 3)) {
		s = skip_space(s + 3);
		errno = 0;
		id = strtoul(s, &end, 10);
		if (!isdigit((unsigned char)*s) || errno || *end ||
		    id > UINT16_MAX)
			return errmsg(err, errlen, "bad ID '%.20s'", s);
		fe->ev.id = id;
		*st = ST_FORMAT;
	} else if (*st == ST_FORMAT && !strcmp(s, "format:")) {
		*st = ST_FIELDS;
	} else if (*st == ST_FIELDS && !strncmp(s, "field:", 6)) {
		return add_field(fe, s, err, errlen);
	} else if (*st == ST_FIELDS && !strncmp(s, "print fmt:", 10)) {
		fe->ev.print_fmt = strdup(skip_space(s + 10));
		if (!fe->ev.print_fmt)
			return errmsg(err, errlen, "out of memory");
		*st = ST_DONE;
	} else {
		return errmsg(err, errlen, "unexpected line '%.40s'", s);
	}
	return 0;
}

struct fmt_event *format_parse(const char *system, const char *text, size_t len,
			    char *err, size_t errlen)
{
	struct fmt_event *fe = calloc(1, sizeof(*fe));
	char *buf = malloc(len + 1), *line, *next;
	enum fmt_state st = ST_NAME;
	char why[160];

	if (!fe || !buf) {
		errmsg(err, errlen, "out of memory");
		goto fail;
	}
	if (memchr(text, '\0', len)) {
		errmsg(err, errlen, "a %s format file holds a NUL byte",
			 system);
		goto fail;
	}
	memcpy(buf, text, len);
	buf[len] = '\0';
	fe->ev.system = strdup(system);
	if (!fe->ev.system) {
		errmsg(err, errlen, "out of memory");
		goto fail;
	}
	for (line = buf; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (parse_line(fe, line, &st, why, sizeof(why))) {
			errmsg(err, errlen, "format of %s/%s: %s", system,
				 fe->ev.name ? fe->ev.name : "?", why);
			goto fail;
		}
	}
	if (st != ST_DONE) {
		static const char *const missing[] = {
			"name:", "ID:", "format:", "print fmt:",
		};

		errmsg(err, errlen, "format of %s/%s: no %s", system,
			 fe->ev.name ? fe->ev.name : "?", missing[st]);
		goto fail;
	}
	fe->hyp = format_hyp_index(system, fe->ev.name);
	free(buf);
	return fe;

fail:
	free(buf);
	format_free(fe);
	return NULL;
}

void format_free(struct fmt_event *fe)
{
	unsigned int i;

	if (!fe)
		return;
	for (i = 0; i < fe->ev.nr_fields; i++)
		free((char *)fe->ev.fields[i].name);
	free((void *)fe->ev.fields);
	free(fe->kinds);
	free(fe->rel);
	free((char *)fe->ev.system);
	free((char *)fe->ev.name);
	free((char *)fe->ev.print_fmt);
	free(fe);
}
