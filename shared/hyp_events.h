/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The events the hypervisor writes, declared once. The hypervisor generates
 * its emitters from HYPTRACE_EVENTS (hyp/include/trace.h), the host module its
 * struct remote_event descriptions (host-driver/events.c), and both use the
 * payload structs generated below.
 *
 *   HYPTRACE_EVENTS(EVENT) expands EVENT(name, id, fields, print) per event,
 *   in increasing id order (trace_remote wants a sorted array):
 *	fields	HE_FIELD(type, name) ..., the payload after the u16 id
 *	print	HE_PRINT(fmt, args...); args name fields as HE_REC(name) and
 *		symbolic values as HE_SYMBOLIC(name, TABLE), where TABLE(SYM)
 *		expands SYM(value, "string") per value
 *
 * Each user defines HE_FIELD, HE_PRINT, HE_REC and HE_SYMBOLIC as it needs
 * before expanding the table. Payloads have no hidden padding (every field
 * sits at the running sum of the sizes before it), because the tracefs
 * `format` file reports offsets that way: the file then tells the truth to
 * libtraceevent and every other parser.
 */
#ifndef HYPTRACE_SHARED_HYP_EVENTS_H
#define HYPTRACE_SHARED_HYP_EVENTS_H

#include "rb_types.h"

/* Why the CPU is in the hypervisor: hyp_enter and hyp_exit "reason" */
#define HYP_REASONS(SYM)						\
	SYM(1, "hvc")		/* HVC from EL1 */			\
	SYM(2, "smc")		/* SMC from EL1, trapped */		\
	SYM(3, "psci")		/* CPU (re)entry after CPU_ON/SUSPEND */ \
	SYM(4, "firmware")	/* the hypervisor's own call to EL3 */	\
	SYM(5, "trap")		/* any other trap: func_id = ESR's EC */	\
	SYM(6, "psci_local")	/* PSCI the hypervisor answers itself */

enum hyp_reason {
	HYP_REASON_HVC = 1,
	HYP_REASON_SMC = 2,
	HYP_REASON_PSCI = 3,
	HYP_REASON_FIRMWARE = 4,
	HYP_REASON_TRAP = 5,
	HYP_REASON_PSCI_LOCAL = 6,
};

#define HYPTRACE_EVENTS(EVENT)						\
	EVENT(hyp_enter, 1,						\
	      HE_FIELD(u16, reason)					\
	      HE_FIELD(u32, func_id),					\
	      HE_PRINT("reason=%s func_id=0x%x",			\
		       HE_SYMBOLIC(reason, HYP_REASONS),		\
		       HE_REC(func_id)))				\
	EVENT(hyp_exit, 2,						\
	      HE_FIELD(u16, reason)					\
	      HE_FIELD(u32, func_id)					\
	      HE_FIELD(s64, ret),					\
	      HE_PRINT("reason=%s func_id=0x%x ret=%lld",		\
		       HE_SYMBOLIC(reason, HYP_REASONS),		\
		       HE_REC(func_id), HE_REC(ret)))			\
	EVENT(selftest, 3,						\
	      HE_FIELD(u16, __reserved0)				\
	      HE_FIELD(u32, __reserved1)				\
	      HE_FIELD(u64, id),					\
	      HE_PRINT("id=%llu", HE_REC(id)))				\
	/* EL1 or EL0 touched memory stage 2 keeps from the host */	\
	EVENT(host_abort, 4,						\
	      HE_FIELD(u16, __reserved0)				\
	      HE_FIELD(u32, esr)					\
	      HE_FIELD(u64, ipa)					\
	      HE_FIELD(u64, va),					\
	      HE_PRINT("ipa=0x%llx va=0x%llx esr=0x%x",			\
		       HE_REC(ipa), HE_REC(va), HE_REC(esr)))		\
	/* A traced register read or written (mmio_trap.c) */		\
	EVENT(mmio_read, 5,						\
	      HE_FIELD(u16, width)					\
	      HE_FIELD(u32, flags)					\
	      HE_FIELD(u64, addr)					\
	      HE_FIELD(u64, value)					\
	      HE_FIELD(u64, pc)						\
	      HE_FIELD(u64, va),					\
	      HE_PRINT("addr=0x%llx width=%u value=0x%llx pc=0x%llx va=0x%llx flags=0x%x", \
		       HE_REC(addr), HE_REC(width), HE_REC(value),	\
		       HE_REC(pc), HE_REC(va), HE_REC(flags)))		\
	EVENT(mmio_write, 6,						\
	      HE_FIELD(u16, width)					\
	      HE_FIELD(u32, flags)					\
	      HE_FIELD(u64, addr)					\
	      HE_FIELD(u64, value)					\
	      HE_FIELD(u64, pc)						\
	      HE_FIELD(u64, va),					\
	      HE_PRINT("addr=0x%llx width=%u value=0x%llx pc=0x%llx va=0x%llx flags=0x%x", \
		       HE_REC(addr), HE_REC(width), HE_REC(value),	\
		       HE_REC(pc), HE_REC(va), HE_REC(flags)))		\
	/* An access to a traced page let through unemulated, once */	\
	EVENT(mmio_unhandled, 7,					\
	      HE_FIELD(u16, __reserved0)				\
	      HE_FIELD(u32, esr)					\
	      HE_FIELD(u64, addr)					\
	      HE_FIELD(u64, pc)						\
	      HE_FIELD(u64, va),					\
	      HE_PRINT("addr=0x%llx pc=0x%llx va=0x%llx esr=0x%x",	\
		       HE_REC(addr), HE_REC(pc), HE_REC(va),		\
		       HE_REC(esr)))

/*
 * mmio_read and mmio_write (hyp/arch/mmio_trap.c): width in bytes, flags
 * HYP_MMIO_F_*, the physical address, the value as the device gave or got
 * it (zero-extended), the instruction's address and the virtual address
 * it used. The flags:
 */
#define HYP_MMIO_F_ACQREL	0x1	/* load-acquire or store-release */
#define HYP_MMIO_F_SIGNED	0x2	/* the load sign-extended the value */
#define HYP_MMIO_F_DECODED	0x4	/* ISV=0: decoded from the instruction */
#define HYP_MMIO_F_ABORT	0x8	/* the device aborted: EL1 got the abort */
#define HYP_MMIO_F_PAIR		0x10	/* one of the two halves of an LDP/STP */

/* The first two bytes of every payload: the event id (remote_event_hdr) */
struct hyp_event_hdr {
	u16 id;
};

#define HE_FIELD(type, name)	type name;
#define HYP_EVENT_STRUCT(name, id, fields, print)			\
	struct hyp_event_##name {					\
		struct hyp_event_hdr hdr;				\
		fields							\
	};
HYPTRACE_EVENTS(HYP_EVENT_STRUCT)
#undef HYP_EVENT_STRUCT
#undef HE_FIELD

#define HYP_EVENT_ID_ENUM(name, id, fields, print) HYP_EVENT_##name = id,
enum hyp_event_id {
	HYPTRACE_EVENTS(HYP_EVENT_ID_ENUM)
	HYP_EVENT_ID_END
};
#undef HYP_EVENT_ID_ENUM

#define HYP_EVENT_COUNT(name, id, fields, print) + 1
#define HYP_NR_EVENTS	(0 HYPTRACE_EVENTS(HYP_EVENT_COUNT))
/* Ids are 1..HYP_NR_EVENTS, in table order, with no gap */
_Static_assert(HYP_EVENT_ID_END == HYP_NR_EVENTS + 1, "event ids 1..N");

/* No hidden padding: sizeof == 2 + sum of the field sizes */
#define HE_FIELD(type, name)	+ sizeof(type)
#define HYP_EVENT_PACKED(name, id, fields, print)			\
	_Static_assert(sizeof(struct hyp_event_##name) ==		\
		       sizeof(struct hyp_event_hdr) fields,		\
		       #name " has padding the format file would hide");
HYPTRACE_EVENTS(HYP_EVENT_PACKED)
#undef HYP_EVENT_PACKED
#undef HE_FIELD

#endif /* HYPTRACE_SHARED_HYP_EVENTS_H */
