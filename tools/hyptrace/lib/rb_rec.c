// SPDX-License-Identifier: GPL-2.0
/*
 * The one record decoder the hypervisor and the host module use too,
 * compiled in unchanged (shared/rb_rec.h).
 */
#include "../../../shared/rb_rec.c"
