/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hyp_panic() on the host for tests that expect it: the message goes to
 * panic_msg and control back to the test's setjmp(panic_jmp), so that a
 * test can check that a panic came and what it said.
 */
#ifndef TESTS_MEM_PANIC_CATCH_H
#define TESTS_MEM_PANIC_CATCH_H

#include <setjmp.h>

extern jmp_buf panic_jmp;
extern char panic_msg[256];

#endif
