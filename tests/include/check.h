/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The check harness of the host tests (tests/ringbuf, tests/mem,
 * tests/tools): one way to check and one way to report, in KTAP (the
 * kernel's TAP, Documentation/dev-tools/ktap.rst) as kselftest prints it:
 *
 *	TAP version 13
 *	# format_test.c:120: check failed: n == 3: got 2	(a diagnostic)
 *	ok 1 empty page
 *	not ok 2 one record # format_test.c:120: check failed: n == 3: got 2
 *	1..2
 *	# Totals: pass:1 fail:1
 *
 * The plan comes last, as TAP allows, so that a program need not count its
 * tests first. A test is a function run by ck_run() (or ck_run_void()), or
 * the checks between ck_begin() and ck_end(). Inside one:
 *
 *	CHECK(cond[, fmt, ...])	fails the test and returns 1 from the
 *				function (for what the next lines need)
 *	EXPECT(cond[, fmt, ...])  fails the test and goes on
 *				(fmt, if given, a string literal)
 *	EXPECT_EQ(a, b)		EXPECT for two integers, both values shown
 *	ck_fail(file, line, fmt, ...)  a failure found some other way
 *
 * A check failed outside any test is not lost: it is reported as a test
 * of its own. main() ends with "return ck_exit();": the plan, the totals,
 * and exit status 1 if any test failed. Each program includes this once:
 * the state is static, one per program.
 */
#ifndef HYPTRACE_TESTS_CHECK_H
#define HYPTRACE_TESTS_CHECK_H

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Diagnostics printed per test: a broken loop would print thousands */
#define CK_MAX_DIAGNOSTICS	20

static struct {
	bool started;		/* "TAP version 13" printed */
	bool open;		/* between ck_begin() and ck_end() */
	unsigned int tests;	/* test points so far: the plan */
	unsigned int passed;
	unsigned int failed;
	unsigned int checks;	/* every check, for the totals */
	unsigned int failures;	/* failed checks of the current test */
	char reason[160];	/* the first of them, for the "not ok" line */
} ck;

static inline void ck_start(void)
{
	if (!ck.started) {
		printf("TAP version 13\n");
		ck.started = true;
	}
}

static inline void ck_point(bool ok, const char *name)
{
	ck.tests++;
	if (ok) {
		ck.passed++;
		printf("ok %u %s\n", ck.tests, name);
	} else {
		ck.failed++;
		printf("not ok %u %s # %s\n", ck.tests, name, ck.reason);
	}
	ck.failures = 0;
	ck.reason[0] = '\0';
	fflush(stdout);
}

/* Failed checks made outside a test: a test point of their own */
static inline void ck_flush_stray(void)
{
	if (!ck.open && ck.failures)
		ck_point(false, "checks outside a named test");
}

static inline __attribute__((format(printf, 3, 4))) void
ck_fail(const char *file, int line, const char *fmt, ...)
{
	char msg[sizeof(ck.reason)];
	const char *base = strrchr(file, '/');
	va_list ap;
	int n;

	ck_start();
	n = snprintf(msg, sizeof(msg), "%s:%d: ", base ? base + 1 : file,
		     line);
	va_start(ap, fmt);
	if (n > 0 && (size_t)n < sizeof(msg))
		vsnprintf(msg + n, sizeof(msg) - n, fmt, ap);
	va_end(ap);
	/* one line: the reason ends a "not ok" line */
	for (n = 0; msg[n]; n++)
		if (msg[n] == '\n' || msg[n] == '#')
			msg[n] = ' ';
	if (!ck.failures)
		memcpy(ck.reason, msg, sizeof(ck.reason));
	ck.failures++;
	if (ck.failures <= CK_MAX_DIAGNOSTICS)
		printf("# %s\n", msg);
	else if (ck.failures == CK_MAX_DIAGNOSTICS + 1)
		printf("# (more failed checks in this test not shown)\n");
}

/*
 * "check failed: COND" and the caller's message, if any, after it. @fmt
 * comes with a space in front (see EXPECT), so that a check without a
 * message passes a format that is not empty.
 */
static inline __attribute__((format(printf, 4, 5))) void
ck_fail_cond(const char *file, int line, const char *cond,
	     const char *fmt, ...)
{
	char msg[sizeof(ck.reason)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ck_fail(file, line, "check failed: %s%s%s", cond, msg[1] ? ":" : "",
		msg[1] ? msg : "");
}

#define EXPECT(cond, ...)						\
	do {								\
		ck.checks++;						\
		if (!(cond))						\
			ck_fail_cond(__FILE__, __LINE__, #cond,		\
				     " " __VA_ARGS__);			\
	} while (0)

#define CHECK(cond, ...)						\
	do {								\
		ck.checks++;						\
		if (!(cond)) {						\
			ck_fail_cond(__FILE__, __LINE__, #cond,		\
				     " " __VA_ARGS__);			\
			return 1;					\
		}							\
	} while (0)

#define EXPECT_EQ(a, b)							\
	do {								\
		uint64_t ck_a_ = (uint64_t)(a), ck_b_ = (uint64_t)(b);	\
									\
		ck.checks++;						\
		if (ck_a_ != ck_b_)					\
			ck_fail(__FILE__, __LINE__,			\
				"%s = %" PRIu64 ", want %" PRIu64, #a,	\
				ck_a_, ck_b_);				\
	} while (0)

static inline void ck_begin(void)
{
	ck_start();
	ck_flush_stray();
	ck.open = true;
}

/* Ends the test ck_begin() opened; 0 if it passed, 1 if not */
static inline __attribute__((format(printf, 1, 2))) int
ck_end(const char *fmt, ...)
{
	char name[160];
	bool ok = !ck.failures;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	ck.open = false;
	ck_point(ok, name);
	return !ok;
}

/* A test that returns non-zero on failure (as CHECK makes it) */
static inline int ck_run(const char *name, int (*fn)(void))
{
	ck_begin();
	if (fn() && !ck.failures)
		ck_fail(name, 0, "returned failure without a failed check");
	return ck_end("%s", name);
}

/* A test whose failures are all in its checks (EXPECT) */
static inline int ck_run_void(const char *name, void (*fn)(void))
{
	ck_begin();
	fn();
	return ck_end("%s", name);
}

/* The plan and the totals; main()'s exit status */
static inline int ck_exit(void)
{
	ck_start();
	ck_flush_stray();
	printf("1..%u\n", ck.tests);
	printf("# Totals: pass:%u fail:%u (%u checks)\n", ck.passed, ck.failed,
	       ck.checks);
	return ck.failed || !ck.tests ? 1 : 0;
}

#endif /* HYPTRACE_TESTS_CHECK_H */
