/* SPDX-License-Identifier: GPL-2.0 */
/* shadow.c: the meta pages trace_remote reads instead of the shared ones */
#ifndef HYPTRACE_HOST_SHADOW_H
#define HYPTRACE_HOST_SHADOW_H

#include "trace_desc.h"

struct rb_trace_desc *hyptrace_shadow_alloc(struct rb_trace_desc *desc,
					    size_t len);
void hyptrace_shadow_free(void);
int hyptrace_shadow_swap(unsigned int cpu, int (*hyp_swap)(unsigned int cpu));
void hyptrace_shadow_reset(unsigned int cpu);
void hyptrace_shadow_lost(void);
void hyptrace_shadow_refresh(void);
void hyptrace_shadow_guard_all(void);

/* remote_readers.c: trace and trace_pipe copy the counters as they open */
struct dentry;
int hyptrace_remote_hook_readers(struct dentry *remote, unsigned int nr_cpus);

#endif /* HYPTRACE_HOST_SHADOW_H */
