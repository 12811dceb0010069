// SPDX-License-Identifier: GPL-2.0
/*
 * hyptrace report: a trace.dat's events as text, every CPU merged by time,
 * each line as the kernel's remotes/hypervisor/trace file prints it, so
 * that the two can be compared with diff; or, with --mmiotrace, its MMIO
 * events as Linux's mmiotrace writes them (mmiotrace.c).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hyptrace/cmdline.h"
#include "hyptrace/help.h"
#include "subcommands.h"
#include "mmiotrace.h"
#include "hyptrace/tracedat.h"

#define MAX_CPU_ARGS	256

struct report_opts {
	unsigned int cpus[MAX_CPU_ARGS];
	unsigned int nr_cpus;
	int mmiotrace;		/* --mmiotrace: Linux's mmiotrace text */
	const char *file;
};

static int parse_args(int argc, char **argv, struct report_opts *o)
{
	static const struct option longopts[] = {
		{ "cpu", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ "mmiotrace", no_argument, NULL, 'm' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long v;
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			help_usage(stdout, "report");
			return HT_EXIT_OK;
		case 'm':
			o->mmiotrace = 1;
			break;
		case 'c':
			if (!cmdline_parse_ulong(optarg, 0, 65535, &v)) {
				cmdline_err("report", "--cpu wants a CPU number, not '%s'",
				       optarg);
				return HT_EXIT_USAGE;
			}
			if (o->nr_cpus == MAX_CPU_ARGS) {
				cmdline_err("report", "more than %d --cpu options",
				       MAX_CPU_ARGS);
				return HT_EXIT_USAGE;
			}
			o->cpus[o->nr_cpus++] = v;
			break;
		default:
			if (optopt == 'c')
				cmdline_err("report", "--cpu needs a CPU number");
			else
				cmdline_err("report", "unknown option '%s' (see --help)",
				       argv[optind - 1]);
			return HT_EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		cmdline_err("report", optind == argc ?
		       "no trace.dat given (see --help)" :
		       "one trace.dat only (see --help)");
		return HT_EXIT_USAGE;
	}
	o->file = argv[optind];
	return -1;
}

static int wanted(const struct report_opts *o, unsigned int cpu)
{
	unsigned int i;

	if (!o->nr_cpus)
		return 1;
	for (i = 0; i < o->nr_cpus; i++) {
		if (o->cpus[i] == cpu)
			return 1;
	}
	return 0;
}

/* Print every record; the text of one record may be any length */
static int print_all(struct td_file *td, const struct report_opts *o)
{
	size_t cap = 4096;
	char *line = malloc(cap);
	struct td_record rec;
	int r, n;

	if (!line) {
		cmdline_err("report", "out of memory");
		return HT_EXIT_FAIL;
	}
	while ((r = tracedat_next(td, &rec)) > 0) {
		if (!wanted(o, rec.cpu))
			continue;
		if (rec.lost_before) {
			format_print_lost(rec.cpu, rec.lost_before, line, cap);
			puts(line);
		}
		n = format_print_record(td, &rec, line, cap);
		if ((size_t)n >= cap) {
			char *bigger = realloc(line, n + 1);

			if (!bigger) {
				free(line);
				cmdline_err("report", "out of memory");
				return HT_EXIT_FAIL;
			}
			line = bigger;
			cap = n + 1;
			format_print_record(td, &rec, line, cap);
		}
		puts(line);
	}
	free(line);
	if (fflush(stdout) || ferror(stdout)) {
		cmdline_err("report", "writing the output: %s", strerror(errno));
		return HT_EXIT_FAIL;
	}
	if (r < 0) {
		cmdline_err("report", "%s: %s", o->file, tracedat_error(td));
		return HT_EXIT_FAIL;
	}
	return HT_EXIT_OK;
}

int cmd_report(int argc, char **argv)
{
	struct report_opts o = { .nr_cpus = 0 };
	struct td_file *td;
	char err[512];
	unsigned int i;
	int ret;

	ret = parse_args(argc, argv, &o);
	if (ret >= 0)
		return ret;
	td = tracedat_open(o.file, err, sizeof(err));
	if (!td) {
		cmdline_err("report", "%s", err);
		return HT_EXIT_FAIL;
	}
	for (i = 0; i < o.nr_cpus; i++) {
		if (o.cpus[i] >= tracedat_nr_cpus(td)) {
			cmdline_err("report", "%s has no CPU %u (it has %u)", o.file,
			       o.cpus[i], tracedat_nr_cpus(td));
			tracedat_close(td);
			return HT_EXIT_FAIL;
		}
	}
	if (o.mmiotrace && o.nr_cpus) {
		cmdline_err("report", "--mmiotrace takes every CPU: no --cpu");
		tracedat_close(td);
		return HT_EXIT_USAGE;
	}
	ret = o.mmiotrace ? mmiotrace_write(td, stdout, o.file) :
			    print_all(td, &o);
	if (o.mmiotrace && !ret && (fflush(stdout) || ferror(stdout))) {
		cmdline_err("report", "writing the output: %s", strerror(errno));
		ret = HT_EXIT_FAIL;
	}
	tracedat_close(td);
	return ret;
}
