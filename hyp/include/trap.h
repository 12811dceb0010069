/* SPDX-License-Identifier: GPL-2.0 */
#ifndef HYP_TRAP_H
#define HYP_TRAP_H

#include "fw_trace.h"
#include "trace.h"
#include "sysregs.h"
#include "types.h"

/* The register frame vectors.S saves; keep in step with its offsets */
struct trap_frame {
	u64 regs[31];		/* x0..x30 of the interrupted context */
	u64 elr;
	u64 spsr;
	u64 esr;
	u64 far;
	u64 pad;
};

/* Vector numbers vectors.S passes to handle_trap() */
enum trap_vector {
	VEC_EL2_SP0_SYNC, VEC_EL2_SP0_IRQ, VEC_EL2_SP0_FIQ, VEC_EL2_SP0_SERROR,
	VEC_EL2_SYNC, VEC_EL2_IRQ, VEC_EL2_FIQ, VEC_EL2_SERROR,
	VEC_EL1_SYNC, VEC_EL1_IRQ, VEC_EL1_FIQ, VEC_EL1_SERROR,
	VEC_EL1_32_SYNC, VEC_EL1_32_IRQ, VEC_EL1_32_FIQ, VEC_EL1_32_SERROR,
};

void handle_trap(struct trap_frame *frame, enum trap_vector vec);
bool setway_trap(struct trap_frame *frame);
/* cpu_state.c: the CPU-state window and the IMPDEF registers canary */
bool cpu_state_trap(struct trap_frame *frame, u32 ec);
void cpu_state_window_open(void);
bool cpu_has_fgt(void);
/* maint_window.c: the TLBI and DC/IC by VA window */
bool maint_trap(struct trap_frame *frame);
bool maint_step_done(struct trap_frame *frame);
void maint_window_reenter(void);
s64 maint_window_call(u64 op, u64 ns, u64 *left);

/* A call made by EL1 through HVC or SMC, decoded once */
enum smccc_conduit { CONDUIT_HVC, CONDUIT_SMC };

/*
 * The conduit is the trap's own: an HVC64 or SMC64 exception class, the
 * only two that reach smccc_handle_call(). Read from the frame where a
 * call's handling needs it, not passed along every call's way.
 */
static inline enum smccc_conduit smccc_conduit(const struct trap_frame *frame)
{
	return FIELD_GET(ESR_EC, frame->esr) == ESR_EC_SMC64 ? CONDUIT_SMC :
							      CONDUIT_HVC;
}

void smccc_handle_call(struct trap_frame *frame);

/* firmware.S: an SMC to the firmware (EL3 or QEMU's PSCI) */
struct smccc_res {
	u64 a0, a1, a2, a3;
};
void firmware_smc(u64 fid, u64 a1, u64 a2, u64 a3, struct smccc_res *res);

/*
 * The CPU leaves the hypervisor for firmware and comes back (unless the
 * call powers it off): traced as an exit and an entry, like a trap, and
 * timed for a decoded call's fw_ns (fw_trace.h). firmware_call.c.
 */
s64 firmware_call(u64 fid, u64 a1, u64 a2, u64 a3);

/*
 * EL1's call to a firmware service, passed through: x0..x17 of @frame go
 * to firmware as they are (the SVE hint bit of x0 included) and come back
 * as firmware left them. Traced as firmware_call() is.
 */
void firmware_smc_regs(u64 regs[18]);
void firmware_call_regs(struct trap_frame *frame);

bool fw_forward_call(struct trap_frame *frame, u32 fid);

#endif /* HYP_TRAP_H */
