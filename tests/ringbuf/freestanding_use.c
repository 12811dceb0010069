// SPDX-License-Identifier: GPL-2.0
/*
 * Not run: compiled with the hypervisor's freestanding flags to prove that
 * the inline fast path, instantiated the way the hypervisor will use it
 * (constant and variable lengths, any payload alignment), needs no libc
 * symbol (memcpy, memset) and no libgcc outline atomic.
 */
#include "../../shared/ring_buffer.h"
#include "../../shared/trace_desc.h"

struct hyp_enter_event {
	u16 id;
	u8 reason;
	s32 vcpu;
};

bool trace_hyp_enter(struct rb_cpu *cpu, u64 now, u8 reason, s32 vcpu);
bool trace_raw(struct rb_cpu *cpu, u64 now, const void *p, u32 len);

bool trace_hyp_enter(struct rb_cpu *cpu, u64 now, u8 reason, s32 vcpu)
{
	struct hyp_enter_event *ev = rb_reserve(cpu, sizeof(*ev), now);

	if (!ev)
		return false;
	ev->id = 0;
	ev->reason = reason;
	ev->vcpu = vcpu;
	rb_commit(cpu);
	return true;
}

bool trace_raw(struct rb_cpu *cpu, u64 now, const void *p, u32 len)
{
	return rb_write(cpu, now, p, len);
}
