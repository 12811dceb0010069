// SPDX-License-Identifier: GPL-2.0
/*
 * hyptrace-bench: what tracing costs, and how fast a trace can be read out,
 * measured from inside the guest on the trace remotes of
 * /sys/kernel/tracing/remotes/ (the hypervisor's, and the kernel's "test"
 * remote as a reference with no hypervisor in the path).
 *
 * Run it under qemu-system-aarch64 -icount shift=0,sleep=off: every guest
 * instruction then advances the virtual clock by exactly one nanosecond and
 * idle time is skipped, so a CLOCK_MONOTONIC difference is a count of
 * instructions, the same on any host and, within a percent or so (where
 * timer interrupts land), on every run. Read every "ns" below as
 * "instructions". icount keeps one clock for the whole machine, so
 * the instructions of other busy CPUs count too: the figures of "loop" and
 * "hvc" are clean only on an otherwise idle guest, and in "drain" the
 * reader's work takes virtual time away from the writer.
 *
 * loop    The cost of one pwrite() to a remote's write_event file, syscall
 *         and tracefs included. With events=none nothing is recorded (the
 *         hypervisor remote still makes its hypercall; the test remote fails
 *         the write at once); with events=selftest one event is recorded;
 *         with hyp_enter,hyp_exit too, the hypervisor also records its own
 *         entry and exit. The differences are the cost of an event.
 * hvc     The cost of one null hypercall, made by the bench_hvc module with
 *         interrupts off, so without the syscall: the hypervisor's entry and
 *         exit, with or without tracing them.
 * drain   The highest rate of selftest events per second, written on one
 *         CPU, that a reader of that CPU's trace_pipe keeps up with without
 *         losing a single event, for one buffer size. The reader only learns
 *         of new data from the trace_remote poll timer (every 100 ms), so
 *         the buffer must hold about 100 ms of events plus the time it takes
 *         to read them out. writer_bound=1 means the writer could not write
 *         faster, so the reader's limit is higher than the rate reported.
 *         With --reader record the reader is `hyptrace record` instead,
 *         draining per_cpu/cpuN/trace_pipe_raw with splice into a trace.dat;
 *         the same writer, rates and search, and the loss is what the
 *         recorder's summary counts. --reader agent: `hyptrace agent`,
 *         sending every CPU's pages over virtio-serial. --net ADDR:PORT
 *         moves either onto the network: `hyptrace record -N ADDR:PORT`
 *         streaming to trace-cmd listen there, or `hyptrace agent -N
 *         ADDR:PORT` serving a `hyptrace listen -N` that connects to it
 *         and starts the round. With --writer hvc the writer is the
 *         bench_hvc module's null hypercall instead of write_event: far
 *         cheaper, so that the reader, not the writer, sets the limit. The
 *         events are then its hyp_enter and hyp_exit, two a call.
 * record-cpu
 *         The CPU time (user + sys, from wait4()) `hyptrace record` takes
 *         for one such trial at a fixed rate, per MiB of pages recorded.
 *         Under -icount that time is virtual too: instructions again.
 *
 * Results go to stdout, one "@bench key=value ..." line per run, for a host
 * script to tabulate; progress and errors go to stderr.
 */
#include "bench.h"

struct command {
	const char *name;
	int (*run)(const struct options *o);
	unsigned int required;
	unsigned int optional;
};

static const struct command commands[] = {
	{
		.name = "loop",
		.run = cmd_loop,
		.required = OPT_BIT(OPT_REMOTE) | OPT_BIT(OPT_EVENTS) |
			    OPT_BIT(OPT_ITERATIONS),
		.optional = OPT_BIT(OPT_CPU),
	},
	{
		.name = "hvc",
		.run = cmd_hvc,
		.required = OPT_BIT(OPT_CALLS) | OPT_BIT(OPT_EVENTS),
		.optional = OPT_BIT(OPT_CPU),
	},
	{
		.name = "drain",
		.run = cmd_drain,
		.required = OPT_BIT(OPT_REMOTE) | OPT_BIT(OPT_BUFFER_KB) |
			    OPT_BIT(OPT_SECONDS),
		.optional = OPT_BIT(OPT_CPU) | OPT_BIT(OPT_READER_CPU) |
			    OPT_BIT(OPT_STEPS) | OPT_BIT(OPT_READER) |
			    OPT_BIT(OPT_WRITER) | OPT_BIT(OPT_NET) |
			    OPT_BIT(OPT_KEY) | OPT_BIT(OPT_FIRST_RATE),
	},
	{
		.name = "record-cpu",
		.run = cmd_record_cpu,
		.required = OPT_BIT(OPT_BUFFER_KB) | OPT_BIT(OPT_SECONDS) |
			    OPT_BIT(OPT_RATE),
		.optional = OPT_BIT(OPT_CPU) | OPT_BIT(OPT_READER_CPU),
	},
	{
		.name = "record-gate",
		.run = cmd_record_gate,
	},
};

/* Refuse options missing for @cmd, or that it would silently ignore. */
static void check_options(const struct command *cmd, const struct options *o)
{
	unsigned int id;

	for (id = 0; id < OPT_HELP; id++) {
		if ((cmd->required & OPT_BIT(id)) && !(o->given & OPT_BIT(id)))
			usage_error("%s needs --%s", cmd->name,
				    option_name(id));
		if ((o->given & OPT_BIT(id)) &&
		    !((cmd->required | cmd->optional) & OPT_BIT(id)))
			usage_error("%s takes no --%s", cmd->name,
				    option_name(id));
	}
}

int main(int argc, char **argv)
{
	const struct command *cmd;
	struct options o;

	if (argc < 2 || argv[1][0] == '-') {
		parse_options(argc, argv, &o);	/* handles --help */
		usage_error("no command");
	}
	for (cmd = commands; cmd < commands + ARRAY_SIZE(commands); cmd++)
		if (!strcmp(cmd->name, argv[1]))
			break;
	if (cmd == commands + ARRAY_SIZE(commands))
		usage_error("unknown command \"%s\"", argv[1]);

	parse_options(argc - 1, argv + 1, &o);
	check_options(cmd, &o);
	return cmd->run(&o);
}
