// SPDX-License-Identifier: GPL-2.0
/*
 * fwcall_probe: calls to firmware services from EL1, with x0..x17 set, to
 * see which the hypervisor passes to firmware whole (hyp/core/fw_forward.c)
 * and which it answers itself.
 *
 *   insmod fwcall_probe.ko
 *
 * One line per call:
 *   fwcall_probe: NAME fid=0x.. x0=0x.. x2=0x.. kept=1|0
 * where kept says whether x1 and x3..x17 came back as they went: QEMU's
 * firmware (its PSCI emulation) answers an unknown function NOT_SUPPORTED
 * in x0 and leaves the rest alone, so what comes back is what reached it,
 * unless something between clobbered it. The calls:
 *   sip		a SiP fast call, SMC32
 *   sip64_sve	a SiP fast call, SMC64, with the SVE hint bit set
 *   tos_yield	a yielding trusted-OS call
 *   trng		TRNG_VERSION, a standard service
 *   optee_ok	OP-TEE CALL_WITH_ARG, the message in a kernel page
 *   optee_hyp	the same, the message in the hypervisor's memory
 *   ffa_hyp	FF-A RXTX_MAP, the TX buffer in the hypervisor's memory
 *   sdei		SDEI_VERSION (never passed: SDEI would land at EL2)
 *   sip_hvc	the SiP call by HVC (addressed to a hypervisor)
 * The test (tests/boot/45-fw-calls.sh) reads the answers and the trace.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/arm-smccc.h>
#include <linux/gfp.h>
#include <linux/init.h>
#include <linux/io.h>
#include <linux/module.h>

#include "region.h"

#define SIP_FN			0x82000010U
#define SIP_HVC_FN		0x82000011U	/* another, so the trace can tell */
#define SIP64_SVE_FN		0xc2010010U	/* SMC64, SVE hint (bit 16) */
#define TOS_YIELD_FN		0x32000010U	/* trusted OS, yielding */
#define TRNG_VERSION_FN		0x84000050U
#define OPTEE_CALL_WITH_ARG	0x32000004U
#define FFA_RXTX_MAP64		0xc4000066U
#define SDEI_VERSION_FN		0xc4000020U

static void probe(const char *name, u32 fid, u64 a1, u64 a2, u64 a3,
		  bool hvc)
{
	struct arm_smccc_1_2_regs args = { .a0 = fid }, res;
	unsigned long *in = &args.a0, *out = &res.a0;
	bool kept = true;
	int i;

	for (i = 1; i < 18; i++)
		in[i] = 0x5a5a000000000000ULL | (u64)fid << 8 | i;
	args.a1 = a1;
	args.a2 = a2;
	args.a3 = a3;
	if (hvc)
		arm_smccc_1_2_hvc(&args, &res);
	else
		arm_smccc_1_2_smc(&args, &res);
	/* x2 may carry an error code back (FF-A): reported, not compared */
	for (i = 1; i < 18; i++)
		kept &= i == 2 || out[i] == in[i];
	pr_info("%s fid=0x%x x0=0x%lx x2=0x%lx kept=%d\n", name, fid,
		res.a0, res.a2, kept);
}

static int __init fwcall_probe_init(void)
{
	struct resource hyp;
	u64 page, base;
	void *va;

	va = test_map_region(HYPTRACE_HYP_MEM_COMPATIBLE, &hyp);
	if (IS_ERR(va))
		return PTR_ERR(va);
	memunmap(va);
	base = hyp.start + 0x1000;
	page = __get_free_page(GFP_KERNEL);
	if (!page)
		return -ENOMEM;

	probe("sip", SIP_FN, 0x5a5a000000000001ULL, 0x5a5a000000000002ULL,
	      0x5a5a000000000003ULL, false);
	probe("sip64_sve", SIP64_SVE_FN, 1, 2, 3, false);
	probe("tos_yield", TOS_YIELD_FN, 1, 2, 3, false);
	probe("trng", TRNG_VERSION_FN, 0, 0, 0, false);
	probe("optee_ok", OPTEE_CALL_WITH_ARG, virt_to_phys((void *)page) >> 32,
	      (u32)virt_to_phys((void *)page), 0, false);
	probe("optee_hyp", OPTEE_CALL_WITH_ARG, base >> 32, (u32)base, 0,
	      false);
	probe("ffa_hyp", FFA_RXTX_MAP64, base, virt_to_phys((void *)page), 1,
	      false);
	probe("sdei", SDEI_VERSION_FN, 0, 0, 0, false);
	probe("sip_hvc", SIP_HVC_FN, 1, 2, 3, true);
	free_page(page);
	pr_info("done\n");
	return 0;
}

module_init(fwcall_probe_init);

MODULE_DESCRIPTION("hyptrace test: calls to firmware services through the hypervisor");
MODULE_LICENSE("GPL");
