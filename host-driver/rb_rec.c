// SPDX-License-Identifier: GPL-2.0
/*
 * The one record decoder of a data page, the hypervisor's and the tool's,
 * compiled in unchanged (shared/rb_rec.h).
 */
#include "../shared/rb_rec.c"
