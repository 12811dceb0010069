// SPDX-License-Identifier: GPL-2.0
/*
 * The reserve of every hyp_trace() event (trace.h): the clock and the
 * writer's room, once in the image. Inline, each file that traces built
 * its own copy of rb_reserve() (GCC folds identical functions, but these
 * differed in their registers), and the hot files inlined it whole at each
 * site: 2.4 KiB of text, most of a page of the image. A call and a return
 * are what an event pays for it (bench row 1d); hyp_enter and hyp_exit,
 * two an SMCCC call, keep their inline writer (rb_write_words()).
 */
#include "trace.h"

void *hyp_trace_reserve(struct hyp_cpu *cpu, u32 len)
{
	return rb_reserve(&cpu->trace_rb, len, hyp_clock_ns_on(cpu));
}
