/* SPDX-License-Identifier: GPL-2.0 */
/* hyptrace report --mmiotrace (mmiotrace.c) */
#ifndef HYPTRACE_TOOLS_MMIOTRACE_H
#define HYPTRACE_TOOLS_MMIOTRACE_H

#include <stdio.h>

#include "hyptrace/tracedat.h"

/* @td's MMIO events to @out in mmiotrace's text format; an HT_EXIT_* code */
int mmiotrace_write(struct td_file *td, FILE *out, const char *file);

#endif /* HYPTRACE_TOOLS_MMIOTRACE_H */
