// SPDX-License-Identifier: GPL-2.0
/*
 * hyptrace: record the hyptrace hypervisor's trace to a trace.dat and work
 * with the file. The subcommands live in files of their own; this only
 * finds the one asked for.
 */
#include <stdio.h>
#include <string.h>

#include "hyptrace/compiler.h"
#include "hyptrace/cmdline.h"
#include "hyptrace/help.h"
#include "hyptrace/version.h"
#include "subcommands.h"

static const struct subcommand {
	const char *name;
	int (*fn)(int argc, char **argv);
} subcommands[] = {
	{ "record", cmd_record },
	{ "report", cmd_report },
	{ "stats", cmd_stats },
	{ "perfetto", cmd_perfetto },
	{ "agent", cmd_agent },
	{ "listen", cmd_listen },
	{ "keygen", cmd_keygen },
};

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: hyptrace SUBCOMMAND [OPTIONS] [ARGS]\n"
		"       hyptrace --version\n\n");
	for (i = 0; i < ARRAY_SIZE(subcommands); i++)
		fprintf(f, "  %-10s %s\n", subcommands[i].name,
			help_summary(subcommands[i].name));
	fprintf(f, "\n  -h, --help     this list\n"
		"  -V, --version  the tool's version, and the hypervisor call ABI it\n"
		"                 was built for\n"
		"\n'hyptrace SUBCOMMAND --help' lists its options; see hyptrace(1)\n"
		"and hyptrace-SUBCOMMAND(1).\n");
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		usage(stderr);
		return HT_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return HT_EXIT_OK;
	}
	if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version")) {
		puts(ht_version());
		return HT_EXIT_OK;
	}
	for (i = 0; i < ARRAY_SIZE(subcommands); i++) {
		if (!strcmp(argv[1], subcommands[i].name))
			return subcommands[i].fn(argc - 1, argv + 1);
	}
	fprintf(stderr, "hyptrace: unknown subcommand '%s'\n", argv[1]);
	usage(stderr);
	return HT_EXIT_USAGE;
}
