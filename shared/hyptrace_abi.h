/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hyptrace hypercall ABI: what the host issues with HVC #0 and what the
 * hypervisor answers. Shared, unchanged, by the hypervisor and the host module.
 *
 * All calls are SMCCC fast calls in the vendor-specific hypervisor service
 * range (owner 6). Arguments are in x1..x5, the status in x0 (an SMCCC return
 * code: 0 or negative), results in x1..x3. Registers x4..x17 are preserved.
 *
 *   HYPTRACE_CALL_UID (0x8600ff01)
 *	x0..x3 = the hyptrace UID below. A host finds hyptrace by this, never
 *	by probing other IDs: any other hypervisor answers differently.
 *   HYPTRACE_CALL_REVISION (0x8600ff03)
 *	x0 = major, x1 = minor of the ABI.
 *   HYPTRACE_CALL_VERSION (0xc6000000)
 *	x0 = SUCCESS, x1 = HYPTRACE_ABI_VERSION, x2 = number of CPUs the
 *	hypervisor manages, x3 = HYPTRACE_FEATURE_* bits.
 *
 * Any other function ID answers SMCCC_RET_NOT_SUPPORTED (-1).
 */
#ifndef HYPTRACE_SHARED_HYPTRACE_ABI_H
#define HYPTRACE_SHARED_HYPTRACE_ABI_H

#include "smccc.h"

#define HYPTRACE_ABI_MAJOR		0
#define HYPTRACE_ABI_MINOR		1
#define HYPTRACE_ABI_VERSION		((HYPTRACE_ABI_MAJOR << 16) | HYPTRACE_ABI_MINOR)

/* UID 8772a36d-8849-4f02-9d89-7a85aa273b49, as SMCCC packs it into x0..x3 */
#define HYPTRACE_UID_0			0x6da37287U
#define HYPTRACE_UID_1			0x024f4988U
#define HYPTRACE_UID_2			0x857a899dU
#define HYPTRACE_UID_3			0x493b27aaU

#define HYPTRACE_CALL_UID						\
	SMCCC_ID(0, SMCCC_OWNER_VENDOR_HYP, SMCCC_FUNC_CALL_UID)
#define HYPTRACE_CALL_REVISION						\
	SMCCC_ID(0, SMCCC_OWNER_VENDOR_HYP, SMCCC_FUNC_REVISION)
#define HYPTRACE_CALL_VERSION		SMCCC_ID(1, SMCCC_OWNER_VENDOR_HYP, 0x0000)

/* HYPTRACE_CALL_VERSION x3: nothing optional exists yet */
#define HYPTRACE_FEATURE_NONE		0

/*
 * The device-tree node the hypervisor adds under /reserved-memory for the
 * trace carve-out. The host module looks it up by this compatible string.
 */
#define HYPTRACE_CARVEOUT_COMPATIBLE	"hyptrace,trace-carveout"
#define HYPTRACE_HYP_MEM_COMPATIBLE	"hyptrace,hypervisor"

#endif /* HYPTRACE_SHARED_HYPTRACE_ABI_H */
