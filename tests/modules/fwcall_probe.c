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
 *
 *   insmod fwcall_probe.ko decode=1
 *
 * instead makes the calls whose decoding tests/boot/45-fw-decode.sh checks
 * (hyp/core/fw_trace.c), same lines:
 *   features_version	ARCH_FEATURES(SMCCC_VERSION), answered 0 by us
 *   features_soc_id	ARCH_FEATURES(SOC_ID), NOT_SUPPORTED (SMCCC 1.1)
 *   features_wa1	ARCH_FEATURES(WORKAROUND_1), firmware's answer
 *   soc_id		SOC_ID(0)
 *   trng_rnd64	TRNG_RND64 for 192 bits, x1..x3 set to markers (where
 *			firmware with a TRNG returns the entropy)
 *   reset2		SYSTEM_RESET2, vendor type 0x80000001, cookie 0x1234:
 *			refused by the relay (not passed to firmware)
 * then SMCCC_ARCH_WORKAROUND_1 WA_CALLS times on one CPU, a pause longer
 * than the hypervisor's summary period, and once more on that CPU, whose
 * call ends the summary: "fwcall_probe: workaround_1 calls=N cpu=C".
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/arm-smccc.h>
#include <linux/delay.h>
#include <linux/gfp.h>
#include <linux/init.h>
#include <linux/io.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/smp.h>

#include "region.h"

#define SIP_FN			0x82000010U
#define SIP_HVC_FN		0x82000011U	/* another, so the trace can tell */
#define SIP64_SVE_FN		0xc2010010U	/* SMC64, SVE hint (bit 16) */
#define TOS_YIELD_FN		0x32000010U	/* trusted OS, yielding */
#define TRNG_VERSION_FN		0x84000050U
#define OPTEE_CALL_WITH_ARG	0x32000004U
#define FFA_RXTX_MAP64		0xc4000066U
#define SDEI_VERSION_FN		0xc4000020U
#define ARCH_FEATURES_FN	0x80000001U
#define SMCCC_VERSION_FN	0x80000000U
#define SOC_ID_FN		0x80000002U
#define WORKAROUND_1_FN		0x80008000U
#define TRNG_RND64_FN		0xc4000053U
#define SYSTEM_RESET2_FN	0xc4000012U
/* More than the hypervisor's 100 ms summary period (fw_trace.c) */
#define WA_PAUSE_MS		150
#define WA_CALLS		1000

static bool decode;
module_param(decode, bool, 0444);
MODULE_PARM_DESC(decode, "make the calls whose decoding 45-fw-decode checks");

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

static void workaround_1(void *unused)
{
	struct arm_smccc_res res;

	arm_smccc_smc(WORKAROUND_1_FN, 0, 0, 0, 0, 0, 0, 0, &res);
}

static int decode_calls(void)
{
	int i, cpu;

	probe("features_version", ARCH_FEATURES_FN, SMCCC_VERSION_FN, 0, 0,
	      false);
	probe("features_soc_id", ARCH_FEATURES_FN, SOC_ID_FN, 0, 0, false);
	probe("features_wa1", ARCH_FEATURES_FN, WORKAROUND_1_FN, 0, 0, false);
	probe("soc_id", SOC_ID_FN, 0, 0, 0, false);
	probe("trng_rnd64", TRNG_RND64_FN, 192, 0x5a5a00e47c0de002ULL,
	      0x5a5a00e47c0de003ULL, false);
	probe("reset2", SYSTEM_RESET2_FN, 0x80000001, 0x1234, 0, false);

	cpu = get_cpu();
	for (i = 0; i < WA_CALLS; i++)
		workaround_1(NULL);
	put_cpu();
	msleep(WA_PAUSE_MS);
	smp_call_function_single(cpu, workaround_1, NULL, 1);
	pr_info("workaround_1 calls=%d cpu=%d\n", WA_CALLS + 1, cpu);
	pr_info("done\n");
	return 0;
}

static int __init fwcall_probe_init(void)
{
	struct resource hyp;
	u64 page, base;
	void *va;

	if (decode)
		return decode_calls();
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
