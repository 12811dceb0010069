// SPDX-License-Identifier: GPL-2.0
/*
 * hyptrace perfetto: the subcommand. Its options and --help, the output
 * file (a temporary one beside it, renamed over it once complete, so that
 * a failed run leaves the old one), the errors and the summary line. The
 * conversion itself is perfetto_convert.c's; perfetto.h maps the rest.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hyptrace/cmdline.h"
#include "hyptrace/help.h"
#include "subcommands.h"
#include "perfetto.h"
#include "hyptrace/pftrace.h"

/* The one line a successful run prints, on stderr */
static void summary(const struct pf *p)
{
	uint64_t lost = 0, gaps = 0;
	unsigned int i, cpus = 0;
	int unknown = 0;

	for (i = 0; i < p->nr_cpus; i++) {
		cpus += !!p->cpu[i].nr_events;
		lost += p->cpu[i].lost;
		gaps += p->cpu[i].lost_gaps;
		unknown |= p->cpu[i].lost_unknown;
	}
	fprintf(stderr, "hyptrace %s: %s: %" PRIu64 " events from %u of %u CPUs, %" PRIu64 " hyp slices (%" PRIu64 " unpaired enter/exit), ",
		PF_SUB, p->out_name, p->nr_written, cpus, p->nr_cpus,
		p->nr_slices, p->nr_unpaired);
	if (!gaps)
		fprintf(stderr, "no events lost\n");
	else if (!unknown)
		fprintf(stderr, "%" PRIu64 " events lost in %" PRIu64 " gaps\n",
			lost, gaps);
	else
		fprintf(stderr, "events lost in %" PRIu64 " gaps (%" PRIu64 " counted, the rest unknown)\n",
			gaps, lost);
}

static char *default_output(const char *in)
{
	static const char ext[] = ".perfetto-trace";
	size_t n = strlen(in);
	char *out;

	if (n > 4 && !strcmp(in + n - 4, ".dat"))
		n -= 4;
	out = malloc(n + sizeof(ext));
	if (out) {
		memcpy(out, in, n);
		memcpy(out + n, ext, sizeof(ext));
	}
	return out;
}

/*
 * A temporary file beside @out, renamed over it once complete, so that a
 * failed conversion leaves no half file. Not when @out exists and is not
 * a regular file: a device or a FIFO (/dev/null, a pipe to a viewer) is
 * written as it is, never replaced (run as root, the rename would turn
 * /dev/null into a regular file for the whole machine).
 */
static int open_output(struct pf *p, const char *out, char **tmp)
{
	struct stat st;
	mode_t mask;
	int fd;

	*tmp = NULL;
	if (!strcmp(out, "-")) {
		p->f = stdout;
		p->out_name = "standard output";
		return 0;
	}
	p->out_name = out;
	if (!stat(out, &st) && !S_ISREG(st.st_mode)) {
		if (S_ISDIR(st.st_mode)) {
			cmdline_err(PF_SUB, "%s: a directory", out);
			return -1;
		}
		p->f = fopen(out, "w");
		if (!p->f) {
			cmdline_err(PF_SUB, "%s: %s", out, strerror(errno));
			return -1;
		}
		return 0;
	}
	if (asprintf(tmp, "%s.XXXXXX", out) < 0) {
		*tmp = NULL;
		cmdline_err(PF_SUB, "out of memory");
		return -1;
	}
	fd = mkstemp(*tmp);
	if (fd < 0) {
		cmdline_err(PF_SUB, "%s: %s", out, strerror(errno));
		free(*tmp);
		*tmp = NULL;
		return -1;
	}
	mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask);
	p->f = fdopen(fd, "w");
	if (!p->f) {
		cmdline_err(PF_SUB, "%s: %s", out, strerror(errno));
		close(fd);
		unlink(*tmp);
		free(*tmp);
		*tmp = NULL;
		return -1;
	}
	return 0;
}

static int close_output(struct pf *p, const char *out, const char *tmp,
			int ok)
{
	if (!tmp) {
		if (ok && (p->f == stdout ? fflush(p->f) : fclose(p->f))) {
			cmdline_err(PF_SUB, "%s: %s", p->out_name, strerror(errno));
			return -1;
		}
		if (p->f != stdout && !ok)
			fclose(p->f);
		p->f = NULL;
		return ok ? 0 : -1;
	}
	if (p->f && fclose(p->f) && ok) {
		cmdline_err(PF_SUB, "%s: %s", out, strerror(errno));
		ok = 0;
	}
	p->f = NULL;
	if (ok && rename(tmp, out)) {
		cmdline_err(PF_SUB, "%s: %s", out, strerror(errno));
		ok = 0;
	}
	if (!ok)
		unlink(tmp);
	return ok ? 0 : -1;
}

int cmd_perfetto(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "hyp-group", required_argument, NULL, 'g' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static struct pf p;	/* kind[] is 64 KiB: not on the stack */
	char *out = NULL, *def = NULL, *tmp = NULL;
	int c, ret;

	memset(&p, 0, sizeof(p));
	p.enter_field = PFT_EVENT_HYPERVISOR_HYP_ENTER;
	p.exit_field = PFT_EVENT_HYPERVISOR_HYP_EXIT;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":ho:", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			help_usage(stdout, "perfetto");
			return HT_EXIT_OK;
		case 'o':
			out = optarg;
			break;
		case 'g':
			if (!strcmp(optarg, "hyp")) {
				p.enter_field = PFT_EVENT_HYP_ENTER;
				p.exit_field = PFT_EVENT_HYP_EXIT;
			} else if (strcmp(optarg, "hypervisor")) {
				cmdline_err(PF_SUB, "--hyp-group takes hyp or hypervisor, not '%s'",
				       optarg);
				return HT_EXIT_USAGE;
			}
			break;
		case ':':
			cmdline_err(PF_SUB, "%s needs an argument; see 'hyptrace perfetto --help'",
			       argv[optind - 1]);
			return HT_EXIT_USAGE;
		default:
			cmdline_err(PF_SUB, "unknown option '%s'; see 'hyptrace perfetto --help'",
			       argv[optind - 1]);
			return HT_EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		cmdline_err(PF_SUB, "%s; see 'hyptrace perfetto --help'",
		       optind == argc ? "which trace.dat?" :
		       "one trace.dat at a time");
		return HT_EXIT_USAGE;
	}
	p.in = argv[optind];
	if (!out) {
		out = def = default_output(p.in);
		if (!out) {
			cmdline_err(PF_SUB, "out of memory");
			return HT_EXIT_FAIL;
		}
	}
	if (!strcmp(out, "-") && isatty(STDOUT_FILENO)) {
		cmdline_err(PF_SUB, "not writing a binary trace to a terminal; use -o FILE");
		free(def);
		return HT_EXIT_USAGE;
	}

	ret = HT_EXIT_FAIL;
	if (!open_output(&p, out, &tmp)) {
		if (!close_output(&p, out, tmp, !perfetto_convert(&p))) {
			summary(&p);
			ret = HT_EXIT_OK;
		}
	}
	perfetto_convert_free(&p);
	free(tmp);
	free(def);
	return ret;
}
