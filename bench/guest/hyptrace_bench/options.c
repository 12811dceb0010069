// SPDX-License-Identifier: GPL-2.0
/*
 * hyptrace-bench The command line: the options of every command, --help, parsing.
 */
#include "bench.h"

/* drain: the rate of the first trial, unless --first-rate */
#define FIRST_RATE		1000UL

static const struct option long_options[] = {
	{ "remote",	required_argument, NULL, OPT_REMOTE },
	{ "events",	required_argument, NULL, OPT_EVENTS },
	{ "iterations",	required_argument, NULL, OPT_ITERATIONS },
	{ "calls",	required_argument, NULL, OPT_CALLS },
	{ "cpu",	required_argument, NULL, OPT_CPU },
	{ "buffer-kb",	required_argument, NULL, OPT_BUFFER_KB },
	{ "seconds",	required_argument, NULL, OPT_SECONDS },
	{ "reader-cpu",	required_argument, NULL, OPT_READER_CPU },
	{ "steps",	required_argument, NULL, OPT_STEPS },
	{ "reader",	required_argument, NULL, OPT_READER },
	{ "rate",	required_argument, NULL, OPT_RATE },
	{ "writer",	required_argument, NULL, OPT_WRITER },
	{ "net",	required_argument, NULL, OPT_NET },
	{ "key",	required_argument, NULL, OPT_KEY },
	{ "first-rate",	required_argument, NULL, OPT_FIRST_RATE },
	{ "help",	no_argument,	   NULL, OPT_HELP },
	{ NULL, 0, NULL, 0 },
};

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: " PROG " COMMAND [options]\n"
		"\n"
		"Run in the guest under qemu -icount shift=0,sleep=off, where 1 ns\n"
		"of CLOCK_MONOTONIC is 1 instruction. Results go to stdout as\n"
		"'@bench key=value ...' lines, progress to stderr.\n"
		"\n"
		"  loop --remote R --events LIST --iterations N [--cpu C]\n"
		"      time N writes to remotes/R/write_event on CPU C (default 1)\n"
		"      with the events of LIST enabled: 'none' (tracing off) or\n"
		"      names separated by commas, e.g. selftest,hyp_enter,hyp_exit\n"
		"  hvc --calls N --events LIST [--cpu C]\n"
		"      time N null hypercalls made by the bench_hvc module on\n"
		"      CPU C (default 1), with LIST enabled in the hypervisor remote\n"
		"  drain --remote R --buffer-kb KB --seconds S [--cpu C]\n"
		"        [--reader-cpu C2] [--steps K] [--reader pipe|record|agent]\n"
		"        [--writer event|hvc] [--net ADDR:PORT [--key FILE]]\n"
		"        [--first-rate N]\n"
		"      find the highest rate of selftest events per second on\n"
		"      CPU C (default 1) that a reader of its trace_pipe on CPU C2\n"
		"      (default 2) keeps up with at zero loss, with KB KiB buffers;\n"
		"      each trial lasts S virtual seconds (a decimal, e.g. 0.2);\n"
		"      doubles the rate from N/s (default %lu) until the first\n"
		"      loss, then bisects K times (default 5). --reader record:\n"
		"      the reader is " RECORDER " record -C C (remote\n"
		"      hypervisor only).\n"
		"      --reader agent: " RECORDER " agent --start, sending every\n"
		"      CPU's pages over virtio-serial (to hyptrace listen --virtio\n"
		"      on the host), its threads pinned to their CPUs\n"
		"      --net ADDR:PORT: over the network instead: record -N\n"
		"      ADDR:PORT (to trace-cmd listen there), or agent -N\n"
		"      ADDR:PORT --key FILE (the key, which --key gives; required\n"
		"      with agent), waiting for a hyptrace listen -N to start it\n"
		"      --writer hvc: the events are the hyp_enter and hyp_exit of\n"
		"      bench_hvc's null hypercalls, two a call, not selftest\n"
		"      events from write_event (remote hypervisor only)\n"
		"  record-cpu --buffer-kb KB --seconds S --rate N [--cpu C]\n"
		"        [--reader-cpu C2]\n"
		"      one such trial with the recorder at N events per second:\n"
		"      the recorder's CPU time per MiB recorded\n"
		"  record-gate\n"
		"      (internal) the command the recorder runs during a trial\n"
		"\n"
		"Remotes: hypervisor, test (insmod remote_test.ko first).\n",
		FIRST_RATE);
}

_Noreturn __printf(1, 2) void
usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdie_status(2, " (see " PROG " --help)", fmt, ap);
}

static unsigned long parse_ulong(const char *text, const char *option,
				 unsigned long min)
{
	unsigned long val;
	char *end;

	errno = 0;
	val = strtoul(text, &end, 10);
	if (errno || end == text || *end || text[0] == '-' || val < min)
		usage_error("--%s wants a whole number >= %lu, not \"%s\"",
			    option, min, text);
	return val;
}

static double parse_seconds(const char *text)
{
	double val;
	char *end;

	errno = 0;
	val = strtod(text, &end);
	if (errno || end == text || *end || !(val >= 0.01 && val <= 3600))
		usage_error("--seconds wants a duration from 0.01 to 3600, not \"%s\"",
			    text);
	return val;
}

void parse_options(int argc, char **argv, struct options *o)
{
	int id;

	*o = (struct options) {
		.cpu = 1,
		.reader_cpu = 2,
		.steps = 5,
		.first_rate = FIRST_RATE,
	};
	while ((id = getopt_long(argc, argv, "", long_options, NULL)) != -1) {
		switch (id) {
		case OPT_REMOTE:
			o->remote = optarg;
			break;
		case OPT_EVENTS:
			o->events = optarg;
			break;
		case OPT_ITERATIONS:
			o->iterations = parse_ulong(optarg, "iterations", 1);
			break;
		case OPT_CALLS:
			o->calls = parse_ulong(optarg, "calls", 1);
			break;
		case OPT_CPU:
			o->cpu = parse_ulong(optarg, "cpu", 0);
			break;
		case OPT_BUFFER_KB:
			o->buffer_kb = parse_ulong(optarg, "buffer-kb", 1);
			break;
		case OPT_SECONDS:
			o->seconds = parse_seconds(optarg);
			break;
		case OPT_READER_CPU:
			o->reader_cpu = parse_ulong(optarg, "reader-cpu", 0);
			break;
		case OPT_STEPS:
			o->steps = parse_ulong(optarg, "steps", 0);
			break;
		case OPT_READER:
			if (strcmp(optarg, "pipe") && strcmp(optarg, "record") &&
			    strcmp(optarg, "agent"))
				usage_error("--reader wants pipe, record or agent, not \"%s\"",
					    optarg);
			o->agent = !strcmp(optarg, "agent");
			o->record = o->agent || !strcmp(optarg, "record");
			break;
		case OPT_RATE:
			o->rate = parse_ulong(optarg, "rate", 1);
			break;
		case OPT_WRITER:
			if (strcmp(optarg, "event") && strcmp(optarg, "hvc"))
				usage_error("--writer wants event or hvc, not \"%s\"",
					    optarg);
			o->hvc = !strcmp(optarg, "hvc");
			break;
		case OPT_FIRST_RATE:
			o->first_rate = parse_ulong(optarg, "first-rate", 1);
			break;
		case OPT_NET:
			if (!strchr(optarg, ':'))
				usage_error("--net wants ADDR:PORT, not \"%s\"",
					    optarg);
			o->net = optarg;
			break;
		case OPT_KEY:
			o->key = optarg;
			break;
		case OPT_HELP:
			usage(stdout);
			exit(0);
		default:
			usage_error("bad option");
		}
		o->given |= OPT_BIT(id);
	}
	if (optind < argc)
		usage_error("unexpected argument \"%s\"", argv[optind]);
}

const char *option_name(unsigned int id)
{
	const struct option *opt;

	for (opt = long_options; opt->name; opt++)
		if (opt->val == (int)id)
			return opt->name;
	return "?";
}
