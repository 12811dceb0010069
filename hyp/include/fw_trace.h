/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Firmware calls decoded into one event per service (fw_psci, fw_arch,
 * fw_workaround, fw_trng, fw_scmi, fw_optee: shared/hyp_events.h). A handler that decodes a
 * call asks whether its service's event is on once, times the firmware
 * calls it makes meanwhile (firmware_call() adds to this CPU's fw.ns), and
 * records the call with its result when it is done:
 *
 *	traced = fw_time_begin(hyp_trace_on(fw_arch));
 *	... r[0] = firmware_call(...) ...
 *	if (traced)
 *		fw_trace_arch(fid, x1, r[0], fw_time_end());
 *
 * Off, that is one load and one branch on the handler's path and one in
 * firmware_call(); the hypervisor's own hypercalls never come here.
 */
#ifndef HYP_FW_TRACE_H
#define HYP_FW_TRACE_H

#include "cpus.h"
#include "trace.h"

/*
 * Start timing this CPU's firmware calls if @on; returns @on. Off, nothing
 * is written: fw.timed is false outside a traced call (fw_time_end()).
 */
static inline bool fw_time_begin(bool on)
{
	struct fw_cpu *fw;

	if (!on)
		return false;
	fw = &this_cpu()->fw;
	fw->ns = 0;
	fw->timed = true;
	return true;
}

/* Stop timing: the ns firmware kept this CPU since fw_time_begin() */
static inline u64 fw_time_end(void)
{
	struct fw_cpu *fw = &this_cpu()->fw;

	fw->timed = false;
	return fw->ns;
}

/*
 * Around one SMC to firmware: the start, or 0 when nobody times it. The
 * clock is read out of line: firmware_call() is inlined everywhere.
 */
u64 fw_clock_now(void);
void fw_clock_add(u64 start);

static inline u64 fw_call_start(void)
{
	return this_cpu()->fw.timed ? fw_clock_now() : 0;
}

static inline void fw_call_done(u64 start)
{
	if (this_cpu()->fw.timed)
		fw_clock_add(start);
}

struct trap_frame;

/* PSCI (DEN0022): @r is the caller's x0.. as it made the call */
void fw_trace_psci(u32 fid, const u64 *r, s64 ret, u64 fw_ns);
/* What PSCI_FEATURES answered for CPU_SUSPEND: its power_state format */
void fw_psci_features_seen(u64 feature, s64 ret);
/* A traced CPU_SUSPEND leaves for firmware, and may wake in setup.c */
void fw_psci_suspend_leave(u64 power_state);
void fw_psci_suspend_back(void);
void fw_psci_resumed(void);

void fw_trace_arch(u32 fid, u64 x1, s64 ret, u64 fw_ns);
/* SMCCC_ARCH_WORKAROUND_1/2/3: passed to firmware, counted and timed */
void fw_workaround_call(struct trap_frame *frame, u32 fid);

/*
 * What a forwarded call's decoder keeps from before the SMC for after it
 * (fw_forward.c): fw_call_begin() says whether it is traced, and then
 * fw_call_end() records it.
 */
enum fw_call_kind { FW_CALL_TRNG, FW_CALL_SCMI, FW_CALL_OPTEE };

struct fw_call {
	enum fw_call_kind kind;
	u64 x1;			/* TRNG: the caller's */
	u64 scmi_shmem;		/* SCMI: the channel's shared memory */
	u32 scmi_header;	/* SCMI: the message header, before */
};

bool fw_call_begin(const u64 *r, u32 fid, struct fw_call *call);
void fw_call_end(const u64 *r, u32 fid, const struct fw_call *call);

/*
 * SCMI over SMC (fw_scmi.c): the channels dt_scmi.c found. The part of
 * the shared memory read: up to the first payload word, word-aligned.
 */
#define FW_SCMI_MAX_CHANNELS	8
#define FW_SCMI_SHMEM_READ	0x20
#define FW_SCMI_SHMEM_ALIGN	4

struct pgtable;
void dt_parse_scmi(void);
/* NULL, or why the channel was not added */
const char *fw_scmi_channel_add(u32 func_id, u64 shmem, bool param);
void fw_scmi_map(struct pgtable *el2_map, u64 prot_device_ro);
bool fw_scmi_begin(const u64 *r, u32 fid, struct fw_call *call);
void fw_scmi_end(const u64 *r, u32 fid, const struct fw_call *call);

/* OP-TEE's yielding calls, spans through their RPCs (fw_optee.c) */
bool fw_optee_begin(u32 fid);
void fw_optee_end(const u64 *r);


#endif /* HYP_FW_TRACE_H */
