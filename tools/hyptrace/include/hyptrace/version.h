/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the tool says of itself, in one place (lib/version.c): on
 * 'hyptrace --version', and in the VERSION option of every trace.dat it
 * writes, which 'trace-cmd report --version' prints.
 */
#ifndef HYPTRACE_VERSION_H
#define HYPTRACE_VERSION_H

/* "hyptrace V (hypervisor ABI X.Y)": shared/hyptrace_version.h's V */
const char *ht_version(void);

#endif /* HYPTRACE_VERSION_H */
