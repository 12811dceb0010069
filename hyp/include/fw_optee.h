/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A CPU's OP-TEE request in progress, RPCs and all (hyp/core/fw_optee.c):
 * in its struct fw_cpu (cpus.h), and alone in tests/fw.
 */
#ifndef HYP_FW_OPTEE_H
#define HYP_FW_OPTEE_H

#include "types.h"

struct fw_optee_span {
	bool open;
	u16 flags;		/* FW_OPTEE_F_* (shared/hyp_events.h) */
	u32 func_id;		/* the call that opened it */
	u32 rpcs, intr_rpcs;
	u64 start_ns;
	u64 fw_ns;		/* in the secure world, summed */
	u64 last_ret;		/* x0 of its last return: an RPC's code */
};

/* A call that opens or resumes a span on @s at @now (ns) */
void fw_optee_span_begin(struct fw_optee_span *s, u32 fid, u64 now);
/* Its return @ret after @fw_ns in firmware: recorded unless an RPC */
void fw_optee_span_end(struct fw_optee_span *s, u64 ret, u64 fw_ns, u64 now);

#endif /* HYP_FW_OPTEE_H */
