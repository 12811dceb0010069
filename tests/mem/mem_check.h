/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The checks of the tests/mem programs: CHECK counts a failure and says
 * where, OK says "ok: ..." for a part that added none; main() ends with
 * mem_check_exit(). One definition of failures per program (this header
 * is included by its one test file).
 */
#ifndef HYPTRACE_TESTS_MEM_CHECK_H
#define HYPTRACE_TESTS_MEM_CHECK_H

#include <stdio.h>

static int failures;

#define CHECK(cond, ...) do {						\
	if (!(cond)) {							\
		failures++;						\
		printf("FAIL %s:%d: ", __FILE__, __LINE__);		\
		printf(__VA_ARGS__);					\
		printf("\n");						\
	}								\
} while (0)

/* "ok: ..." for a part of the test, if it added no failure since @before */
#define OK(before, ...) do {						\
	if (failures == (before)) {					\
		printf("ok: ");						\
		printf(__VA_ARGS__);					\
		printf("\n");						\
	}								\
} while (0)

#endif /* HYPTRACE_TESTS_MEM_CHECK_H */
