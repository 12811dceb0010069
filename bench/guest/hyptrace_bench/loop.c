// SPDX-License-Identifier: GPL-2.0
/*
 * hyptrace-bench loop: the cost of one write_event.
 */
#include "bench.h"

#define WARMUP_WRITES		1000

int cmd_loop(const struct options *o)
{
	static const char one[] = "1\n";
	unsigned long long start, ns;
	unsigned long failed = 0;
	struct remote r;
	unsigned long i;
	int fd;

	pin_to_cpu(o->cpu);
	remote_open(&r, o->remote);
	remote_configure(&r, 0, o->events);
	fd = remote_open_write_event(&r);

	fprintf(stderr, "loop: %s events=%s: %lu writes on CPU %lu\n",
		r.name, o->events, o->iterations, o->cpu);
	for (i = 0; i < WARMUP_WRITES; i++)
		write_event_text(fd, one, sizeof(one) - 1);

	start = monotonic_ns();
	for (i = 0; i < o->iterations; i++)
		if (!write_event_text(fd, one, sizeof(one) - 1))
			failed++;
	ns = monotonic_ns() - start;

	close(fd);
	remote_stop(&r);
	printf("@bench loop remote=%s events=%s iterations=%lu ns=%llu per_op=%.1f failed=%lu\n",
	       r.name, o->events, o->iterations, ns,
	       (double)ns / o->iterations, failed);
	return 0;
}
