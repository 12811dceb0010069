/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/fw: what hyp/core/fw_optee.c uses of fw_trace.h, from the test:
 * the records it writes kept in an array, the clock and the firmware
 * time the test's to set (the CPU's state: cpus.h).
 */
#ifndef HYP_FW_TRACE_H
#define HYP_FW_TRACE_H

#include "cpus.h"
#include "fw_optee.h"
#include "hyp_events.h"

#define TEST_MAX_RECORDS	16

extern struct hyp_event_fw_optee test_records[TEST_MAX_RECORDS];
extern unsigned int test_nr_records;
extern bool test_event_on;
extern u64 test_now_ns, test_fw_ns;

static inline u64 hyp_clock_ns(void)
{
	return test_now_ns;
}

static inline bool fw_time_begin(bool on)
{
	return on;
}

static inline u64 fw_time_end(void)
{
	return test_fw_ns;
}

static inline void test_record_fw_optee(struct hyp_event_fw_optee e)
{
	if (test_nr_records < TEST_MAX_RECORDS)
		test_records[test_nr_records] = e;
	test_nr_records++;
}

#define hyp_trace_on(name)	test_event_on
#define hyp_trace(name, ...)						\
	test_record_##name((struct hyp_event_##name){ __VA_ARGS__ })

bool fw_optee_begin(u32 fid);
void fw_optee_end(const u64 *r);

#endif /* HYP_FW_TRACE_H */
