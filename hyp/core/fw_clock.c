// SPDX-License-Identifier: GPL-2.0
/*
 * The clock around one SMC to firmware (fw_trace.h's fw_call_start() and
 * fw_call_done(), inlined in firmware_call.c's two), out of line and apart
 * from the decoding in fw_trace.c: a panic makes firmware calls too, and
 * what it calls must not lead back to what may panic.
 */
#include "cpus.h"
#include "fw_trace.h"
#include "trace.h"

u64 fw_clock_now(void)
{
	return hyp_clock_ns();
}

void fw_clock_add(u64 start)
{
	this_cpu()->fw.ns += fw_clock_now() - start;
}
