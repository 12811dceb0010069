// SPDX-License-Identifier: GPL-2.0
/*
 * `hyptrace stats FILE [--json]`: how long each CPU spends in EL2, and why.
 * Reads a trace.dat record by record (hyptrace/tracedat.h), hands hyp_enter and
 * hyp_exit to lib/el2stats.c for the pairing and the figures, the decoded
 * firmware calls to stats_fw.c, counts every other event and the
 * lost-event markers, then prints tables
 * (stats_text.c) or one JSON document (stats_json.c).
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "hyptrace/cmdline.h"
#include "hyptrace/help.h"
#include "subcommands.h"
#include "stats.h"
#include "hyptrace/tracedat.h"

#define STATS_DEFAULT_TOP	10
#define STATS_NO_EVENT		(-1)

/* hyptrace-stats(1) says how many (reason, function ID)s are listed */
_Static_assert(EL2_FUNCS_MAX == 16384, "hyptrace-stats.1.adoc gives EL2_FUNCS_MAX");

struct stats_reader {
	struct td_file *td;
	struct stats_report *r;
	const struct td_event *enter, *exit;
	const struct td_field *enter_reason, *enter_func_id, *exit_reason;
	int *event_index;		/* by event id: into r->events or -1 */
};

/*
 * A copy of an event's name fit for a terminal and for JSON: any byte
 * outside printable ASCII becomes '?', as does a missing name.
 */
static char *printable(const char *name)
{
	char *copy = strdup(name && *name ? name : "?");
	char *p;

	for (p = copy; p && *p; p++)
		if (*p < 0x20 || *p > 0x7e)
			*p = '?';
	return copy;
}

/* The index of @rec's event in r->events, added on first sight; -1 ENOMEM */
static int count_event(struct stats_reader *rd, const struct td_record *rec)
{
	struct stats_report *r = rd->r;
	struct stats_event *ev, *events;
	const struct td_event *fmt;
	int i = rd->event_index[rec->id];

	if (i == STATS_NO_EVENT) {
		events = realloc(r->events, (r->nr_events + 1) * sizeof(*ev));
		if (!events)
			return -1;
		r->events = events;
		/* counted in nr_events at once, so that free_report() frees it */
		i = (int)r->nr_events++;
		ev = &events[i];
		memset(ev, 0, sizeof(*ev));
		fmt = tracedat_event_by_id(rd->td, rec->id);
		ev->id = rec->id;
		ev->per_cpu = calloc(r->nr_cpus, sizeof(*ev->per_cpu));
		ev->system = printable(fmt ? fmt->system : NULL);
		ev->name = printable(fmt ? fmt->name : NULL);
		if (!ev->per_cpu || !ev->system || !ev->name)
			return -1;
		rd->event_index[rec->id] = i;
	}
	ev = &r->events[i];
	ev->total++;
	ev->per_cpu[rec->cpu]++;
	return 0;
}

static int feed_el2(struct stats_reader *rd, const struct td_record *rec)
{
	struct el2_stats *el2 = &rd->r->el2;
	uint64_t reason, func_id;

	if (rec->lost_before)
		el2stats_lost(el2, rec->cpu, rec->lost_before);
	if (rd->enter && rec->id == rd->enter->id) {
		if (format_print_read_field(rec, rd->enter_reason, &reason) ||
		    format_print_read_field(rec, rd->enter_func_id, &func_id)) {
			rd->r->malformed++;
			return 0;
		}
		return el2stats_enter(el2, rec->cpu, rec->ts, (uint16_t)reason,
				 (uint32_t)func_id);
	}
	if (rd->exit && rec->id == rd->exit->id) {
		if (format_print_read_field(rec, rd->exit_reason, &reason)) {
			rd->r->malformed++;
			return 0;
		}
		return el2stats_exit(el2, rec->cpu, rec->ts, (uint16_t)reason);
	}
	return 0;
}

static void note_time(struct stats_report *r, const struct td_record *rec)
{
	struct stats_cpu *c = &r->cpus[rec->cpu];

	if (!c->records++)
		c->first_ts = rec->ts;
	c->last_ts = rec->ts;
	if (!r->records++)
		r->first_ts = rec->ts;
	if (rec->ts < r->first_ts)
		r->first_ts = rec->ts;
	if (rec->ts > r->last_ts)
		r->last_ts = rec->ts;
}

/* Find the two events and their fields. 0, or -1 with a reason printed */
static int find_hyp_events(struct stats_reader *rd)
{
	const char *path = rd->r->path;

	rd->enter = tracedat_event_by_name(rd->td, "hypervisor", "hyp_enter");
	if (!rd->enter)
		rd->enter = tracedat_event_by_name(rd->td, NULL, "hyp_enter");
	rd->exit = tracedat_event_by_name(rd->td, "hypervisor", "hyp_exit");
	if (!rd->exit)
		rd->exit = tracedat_event_by_name(rd->td, NULL, "hyp_exit");
	if (!rd->enter && !rd->exit) {
		cmdline_err("stats", "%s: no hyp_enter or hyp_exit format: not a hypervisor trace",
		       path);
		return -1;
	}
	if (rd->enter) {
		rd->enter_reason = format_print_find_field(rd->enter, "reason");
		rd->enter_func_id = format_print_find_field(rd->enter, "func_id");
		if (!rd->enter_reason || !rd->enter_func_id) {
			cmdline_err("stats", "%s: hyp_enter's format lacks reason or func_id",
			       path);
			return -1;
		}
	}
	if (rd->exit) {
		rd->exit_reason = format_print_find_field(rd->exit, "reason");
		if (!rd->exit_reason) {
			cmdline_err("stats", "%s: hyp_exit's format lacks reason",
			       path);
			return -1;
		}
	}
	return 0;
}

static int cmp_event_id(const void *a, const void *b)
{
	const struct stats_event *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/* Read every record into @r. HT_EXIT_OK or HT_EXIT_FAIL (reason printed) */
static int read_trace(struct stats_reader *rd)
{
	struct stats_report *r = rd->r;
	struct td_record rec;
	int ret;

	while ((ret = tracedat_next(rd->td, &rec)) > 0) {
		if (rec.cpu >= r->nr_cpus) {
			cmdline_err("stats", "%s: record on CPU %u of %u", r->path,
			       rec.cpu, r->nr_cpus);
			return HT_EXIT_FAIL;
		}
		note_time(r, &rec);
		stats_maint_feed(&r->maint, &rec);
		if (count_event(rd, &rec) || feed_el2(rd, &rec) ||
		    stats_mmio_feed(&r->mmio, &rec) ||
		    stats_fw_feed(&r->fw, &rec)) {
			cmdline_err("stats", "%s: out of memory", r->path);
			return HT_EXIT_FAIL;
		}
	}
	if (ret < 0) {
		cmdline_err("stats", "%s: %s", r->path, tracedat_error(rd->td));
		return HT_EXIT_FAIL;
	}
	el2stats_finish(&r->el2);
	if (r->nr_events)
		qsort(r->events, r->nr_events, sizeof(*r->events),
		      cmp_event_id);
	return HT_EXIT_OK;
}

/*
 * The clock in use from the TRACECLOCK text: the bracketed name in
 * "local [boot] mono", or the whole text when nothing is bracketed.
 */
static const char *clock_name(const char *text, char *buf, size_t len)
{
	const char *open, *close;
	size_t n, i;

	if (!text || !*text)
		return NULL;
	open = strchr(text, '[');
	close = open ? strchr(open, ']') : NULL;
	if (open && close) {
		text = open + 1;
		n = (size_t)(close - text);
	} else {
		n = strcspn(text, "\n");
	}
	if (n >= len)
		n = len - 1;
	memcpy(buf, text, n);
	buf[n] = '\0';
	for (i = 0; i < n; i++)
		if (buf[i] < 0x20 || buf[i] > 0x7e)
			buf[i] = '?';
	return buf;
}

static void free_report(struct stats_report *r)
{
	size_t i;

	for (i = 0; i < r->nr_events; i++) {
		free(r->events[i].per_cpu);
		free(r->events[i].system);
		free(r->events[i].name);
	}
	free(r->events);
	free(r->cpus);
	el2stats_free(&r->el2);
	stats_mmio_free(&r->mmio);
	stats_fw_free(&r->fw);
}

static int stats_file(const char *path, int json, size_t top)
{
	struct stats_report r = { .path = path, .top = top };
	struct stats_reader rd = { .r = &r };
	char err[256] = "";
	int ret = HT_EXIT_FAIL, i;

	rd.td = tracedat_open(path, err, sizeof(err));
	if (!rd.td) {
		cmdline_err("stats", "%s", err[0] ? err : path);
		return HT_EXIT_FAIL;
	}
	r.nr_cpus = tracedat_nr_cpus(rd.td);
	r.trace_clock = clock_name(tracedat_trace_clock(rd.td), r.clock_buf,
				   sizeof(r.clock_buf));
	if (find_hyp_events(&rd))
		goto out;
	stats_mmio_init(&r.mmio, rd.td);
	stats_maint_init(&r.maint, rd.td);
	stats_fw_find(&r.fw, rd.td);
	rd.event_index = malloc(65536 * sizeof(*rd.event_index));
	r.cpus = calloc(r.nr_cpus ? r.nr_cpus : 1, sizeof(*r.cpus));
	if (!rd.event_index || !r.cpus || el2stats_init(&r.el2, r.nr_cpus)) {
		cmdline_err("stats", "%s: out of memory", path);
		goto out;
	}
	for (i = 0; i < 65536; i++)
		rd.event_index[i] = STATS_NO_EVENT;
	ret = read_trace(&rd);
	if (ret == HT_EXIT_OK &&
	    (json ? stats_json_print(stdout, &r) : stats_text_print(stdout, &r))) {
		cmdline_err("stats", "out of memory");
		ret = HT_EXIT_FAIL;
	}
	if (ret == HT_EXIT_OK && (fflush(stdout) || ferror(stdout))) {
		cmdline_err("stats", "writing the output: %s", strerror(errno));
		ret = HT_EXIT_FAIL;
	}
out:
	free(rd.event_index);
	free_report(&r);
	tracedat_close(rd.td);
	return ret;
}

int cmd_stats(int argc, char **argv)
{
	static const struct option options[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "top", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	size_t top = STATS_DEFAULT_TOP;
	unsigned long n;
	int json = 0, opt;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":h", options, NULL)) != -1) {
		switch (opt) {
		case 'j':
			json = 1;
			break;
		case 't':
			if (!cmdline_parse_ulong(optarg, 0, 1000000, &n)) {
				cmdline_err("stats", "--top wants a number from 0 to 1000000, not '%s'",
				       optarg);
				return HT_EXIT_USAGE;
			}
			top = n;
			break;
		case 'h':
			help_usage(stdout, "stats");
			return HT_EXIT_OK;
		case ':':
			cmdline_err("stats", "'%s' needs a value (try --help)",
			       argv[optind - 1]);
			return HT_EXIT_USAGE;
		default:
			cmdline_err("stats", "unknown option '%s' (try --help)",
			       argv[optind - 1]);
			return HT_EXIT_USAGE;
		}
	}
	if (argc - optind != 1) {
		cmdline_err("stats", "%s (try --help)", argc - optind ?
		       "one FILE only" : "which trace.dat? (FILE missing)");
		return HT_EXIT_USAGE;
	}
	return stats_file(argv[optind], json, top);
}
