// SPDX-License-Identifier: GPL-2.0
/*
 * The hypervisor's descriptor checker, compiled in unchanged: the module must
 * reject exactly what the hypervisor's own tests say is malformed, so it uses
 * the same code rather than a copy that could drift.
 */
#include "../shared/trace_desc.c"
