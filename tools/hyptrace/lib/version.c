// SPDX-License-Identifier: GPL-2.0
/*
 * The tool's version line: the project's version and the hypervisor call
 * ABI it was built for (a module and hypervisor of another major ABI
 * refuse each other, hyptrace.ko(4)): what a bug report, or a trace.dat
 * sent with one, needs to say.
 */
#include "hyptrace/version.h"
#include "hyptrace_abi.h"
#include "hyptrace_version.h"

#define STR(x)		#x
#define XSTR(x)		STR(x)

const char *ht_version(void)
{
	return "hyptrace " HYPTRACE_VERSION " (hypervisor ABI "
		XSTR(HYPTRACE_ABI_MAJOR) "." XSTR(HYPTRACE_ABI_MINOR) ")";
}
