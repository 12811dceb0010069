// SPDX-License-Identifier: GPL-2.0
/*
 * Every subcommand's --help, in one place: a one-line summary (hyptrace's
 * own list shows it), the synopsis and the options. What the options mean
 * in depth, the output and the exit statuses are in the subcommand's man
 * page, Documentation/man/hyptrace-SUB.1.adoc, which 'make check-doc'
 * holds to the long options printed here.
 */
#include <stdio.h>
#include <string.h>

#include "hyptrace/compiler.h"
#include "hyptrace/help.h"

struct ht_help {
	const char *name;
	const char *summary;
	const char *text;	/* synopsis, blank line, options */
};

static const struct ht_help helps[] = {
	{ "record", "trace the hypervisor into a trace.dat",
"usage: hyptrace record [OPTIONS] [-- COMMAND [ARGS...]]\n"
"\n"
"Trace the hypervisor from an empty buffer until COMMAND exits (or until\n"
"Ctrl-C or SIGTERM), then write a trace.dat.\n"
"\n"
"  -o FILE            output (default trace.dat)\n"
"  -N HOST:PORT       send the recording to `trace-cmd listen -p PORT`\n"
"                     on HOST instead (no local file unless -o too)\n"
"  -e EVENT           record this event (hyp_enter, hyp_exit, selftest,\n"
"                     ...); repeatable; default: all\n"
"  -b KB              buffer size per CPU in KiB (default: the remote's)\n"
"  --no-overwrite     a full buffer drops the newest events, counted\n"
"                     (default: overwrite the oldest)\n"
"  --keep             start from what the buffer holds (early capture)\n"
"  --last-boot        record the previous boot's kept trace instead\n"
"  -C CPU             record only this CPU; repeatable\n"
"  -k SYSTEM[:EVENT]  also record host kernel events into FILE's -host twin\n"
"  -h, --help         this text\n" },
	{ "report", "print a trace.dat's events as text",
"usage: hyptrace report [--cpu N]... [--mmiotrace] FILE\n"
"\n"
"Print every event of FILE, all CPUs merged by time, as tracefs 'trace'.\n"
"\n"
"  --cpu N            only CPU N's events; repeatable\n"
"  --mmiotrace        only the MMIO events, in Linux's mmiotrace text\n"
"                     format (version 20070824)\n"
"  -h, --help         this text\n" },
	{ "stats", "time spent in EL2, per CPU and per reason",
"usage: hyptrace stats [--json] [--top N] FILE\n"
"\n"
"How long each CPU spends in EL2, and why, from hyp_enter/hyp_exit.\n"
"\n"
"  --json             one JSON document instead of tables (its keys are\n"
"                     in the man page)\n"
"  --top N            function IDs to list by count and by time\n"
"                     (default 10, 0 = all)\n"
"  -h, --help         this text\n" },
	{ "perfetto", "convert a trace.dat for ui.perfetto.dev",
"usage: hyptrace perfetto [-o OUT] [--hyp-group GROUP] FILE\n"
"\n"
"Convert FILE into a Perfetto trace (protobuf).\n"
"\n"
"  -o, --output OUT   write OUT; - for standard output (default: FILE\n"
"                     without .dat, plus .perfetto-trace)\n"
"  --hyp-group GROUP  hypervisor (default; Perfetto v52 or later) or hyp\n"
"                     (Android's, v34 or later)\n"
"  -h, --help         this text\n" },
	{ "agent", "board: send the trace over virtio-serial or TCP",
"usage: hyptrace agent [-N ADDR:PORT --key FILE] [OPTIONS]\n"
"\n"
"The board's end: trace when the host says, send each CPU's pages to it\n"
"over virtio-serial (or, with -N, TCP). Runs until SIGINT or SIGTERM.\n"
"\n"
"  -N ADDR:PORT       over TCP, listening on that address only\n"
"  --key FILE         with -N: the shared key (hyptrace keygen FILE)\n"
"  --no-key           with -N, instead of --key: serve anyone who\n"
"                     reaches ADDR:PORT\n"
"  --idle-s S         with -N: drop a client that gives no order for S s\n"
"                     (default 60; 0: never)\n"
"  -e EVENT           trace this event; repeatable; default: all\n"
"  -b KB              buffer size per CPU in KiB (default: the remote's)\n"
"  --no-overwrite     a full buffer drops the newest events, counted\n"
"  --stall-ms MS      drop pages the host has not taken after MS ms\n"
"                     (default 1000)\n"
"  --start            start at once, as if the host had sent 1\n"
"  --ports DIR        where the virtio-serial ports are\n"
"  -h, --help         this text\n" },
	{ "listen", "workstation: take an agent's trace, write a trace.dat",
"usage: hyptrace listen --virtio DIR | -N HOST:PORT --key FILE [OPTIONS]\n"
"\n"
"The workstation's end: start and stop `hyptrace agent` (commands start,\n"
"stop, quit on standard input), take its pages, write a trace.dat.\n"
"\n"
"  --virtio DIR       the directory of QEMU's virtio-serial sockets\n"
"  -N HOST:PORT       over TCP instead: connect to `hyptrace agent -N`\n"
"  --key FILE         with -N: the key the agent has\n"
"  --no-key           with -N, instead of --key: an agent without a key\n"
"  -o FILE            output (default trace.dat)\n"
"  --start            start at once; quit at the end of standard input\n"
"  --max-size SIZE    stop when the pages reach SIZE bytes (K, M, G;\n"
"                     default 1G, 0 for no limit)\n"
"  --align CLOCK      timestamps on this machine's CLOCK (boot, mono,\n"
"                     mono_raw, realtime) instead of the board's\n"
"  -h, --help         this text\n" },
	{ "keygen", "a new key for agent -N and listen -N",
"usage: hyptrace keygen FILE\n"
"\n"
"Write a new key (32 random bytes as hex) into FILE, created mode 600.\n"
"\n"
"  -h, --help         this text\n" },
};

static const struct ht_help *ht_help_find(const char *sub)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(helps); i++)
		if (!strcmp(helps[i].name, sub))
			return &helps[i];
	return NULL;
}

const char *help_summary(const char *sub)
{
	const struct ht_help *h = ht_help_find(sub);

	return h ? h->summary : "";
}

void help_usage(FILE *f, const char *sub)
{
	const struct ht_help *h = ht_help_find(sub);

	if (!h)
		return;
	fputs(h->text, f);
	fprintf(f, "\nSee hyptrace-%s(1).\n", sub);
}
