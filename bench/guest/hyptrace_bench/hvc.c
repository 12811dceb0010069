// SPDX-License-Identifier: GPL-2.0
/*
 * hyptrace-bench hvc: the cost of one null hypercall.
 */
#include "bench.h"

#define WARMUP_HVC_CALLS	1000

int cmd_hvc(const struct options *o)
{
	const char *calls = BENCH_HVC_DIR "/calls";
	const char *elapsed = BENCH_HVC_DIR "/elapsed_ns";
	unsigned long long ns;
	struct remote r;
	char text[32];

	if (access(calls, W_OK))
		die("bench_hvc module not loaded? %s: %s", calls,
		    strerror(errno));
	/* bench_hvc makes the hypercalls on the CPU of the task writing. */
	pin_to_cpu(o->cpu);
	remote_open(&r, "hypervisor");
	remote_configure(&r, 0, o->events);

	fprintf(stderr, "hvc: events=%s: %lu hypercalls on CPU %lu\n",
		o->events, o->calls, o->cpu);
	write_file(calls, "%d\n", WARMUP_HVC_CALLS);
	write_file(calls, "%lu\n", o->calls);
	read_file(elapsed, text, sizeof(text));
	remote_stop(&r);

	ns = strtoull(text, NULL, 10);
	printf("@bench hvc events=%s calls=%lu ns=%llu per_call=%.1f\n",
	       o->events, o->calls, ns, (double)ns / o->calls);
	return 0;
}
