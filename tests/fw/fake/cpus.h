/* SPDX-License-Identifier: GPL-2.0 */
/* tests/fw: what hyp/core/fw_optee.c uses of cpus.h: the CPU, one struct */
#ifndef HYP_CPUS_H
#define HYP_CPUS_H

#include "fw_optee.h"

struct test_cpu {
	struct {
		struct fw_optee_span optee;
	} fw;
};

extern struct test_cpu test_cpu;

static inline struct test_cpu *this_cpu(void)
{
	return &test_cpu;
}

#endif /* HYP_CPUS_H */
