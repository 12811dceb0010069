// SPDX-License-Identifier: GPL-2.0
/* placeholder */
#include "hyptrace.h"
#include "last_boot.h"

int hyptrace_frontend_last_boot(struct hyptrace_last_boot *lb)
{
	return 0;
}
