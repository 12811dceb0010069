// SPDX-License-Identifier: GPL-2.0
/*
 * hyptrace-bench record-cpu: what hyptrace record costs.
 */
#include "bench.h"

#define MIB			(1024.0 * 1024.0)

/*
 * One recorder trial at a fixed rate. The figure is per MiB of pages
 * recorded (what the trace.dat holds), as the recorder's work is per page:
 * a swap, a copy and two splices each, however full the page is.
 */
int cmd_record_cpu(const struct options *o)
{
	struct drain_setup d;
	struct record_counts *c;
	char poll_ms[32];
	struct trial t;
	double mib;

	drain_prepare(&d, o, "hypervisor", true, false);
	drain_trial(&d, o->rate, &t);
	drain_cleanup(&d);

	c = &t.rec;
	if (!c->pages)
		die("record-cpu: hyptrace record recorded nothing");
	mib = (double)c->pages * sysconf(_SC_PAGESIZE) / MIB;
	raw_poll_ms(poll_ms, sizeof(poll_ms));
	printf("@bench record_cpu kb=%lu rate=%lu achieved=%.0f events=%llu lost=%llu pages=%llu bytes=%llu mib=%.3f cpu_ns=%llu run_cpu_ns=%llu ms_per_mib=%.2f run_ms_per_mib=%.2f raw_poll_ms=%s\n",
	       d.kb, t.target, t.achieved, c->events, trial_lost(&t), c->pages,
	       c->bytes, mib, c->cpu_ns, c->run_cpu_ns,
	       c->cpu_ns / (double)NSEC_PER_MSEC / mib,
	       c->run_cpu_ns / (double)NSEC_PER_MSEC / mib, poll_ms);
	return 0;
}
