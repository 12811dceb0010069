/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one clock every timeout in the tool counts on: CLOCK_MONOTONIC in
 * ms, which no date change moves.
 */
#ifndef HYPTRACE_TOOLS_MONO_MS_H
#define HYPTRACE_TOOLS_MONO_MS_H

#include <time.h>

static inline long long mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

#endif /* HYPTRACE_TOOLS_MONO_MS_H */
