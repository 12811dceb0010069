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
 * Then, for hyp/core/fw_scmi.c, an SCMI message on each of the two
 * channels over SMC the hypervisor decodes (virt-dtb-edit.py idle: the
 * third's shared memory is the hypervisor's, out of reach), written into its shared
 * memory as Linux's shmem.c writes one, with a length no platform would
 * accept (the hypervisor must not read it), one line each:
 *   fwcall_probe: scmi NODE fid=0x.. protocol=0x.. msg=0x.. token=N
 *	word0=N x0=0x..
 * (word0: the first payload word, left as it is by a firmware without
 * SCMI); an arm,scmi-smc-param channel once more with an offset that is
 * not its shared memory's ("scmi_wrong NODE ...": not decoded); and, for
 * hyp/core/fw_optee.c, the OP-TEE calls that open a span, each answered
 * at once by a firmware without OP-TEE, same lines as above:
 *   optee_arg	CALL_WITH_ARG, the message in a kernel page
 *   optee_regd	CALL_WITH_REGD_ARG
 *   optee_resume	RETURN_FROM_RPC with no call before it
 *   optee_hyp	CALL_WITH_ARG, the message in the hypervisor's memory
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/arm-smccc.h>
#include <linux/delay.h>
#include <linux/gfp.h>
#include <linux/init.h>
#include <linux/io.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/of.h>
#include <linux/of_address.h>
#include <linux/smp.h>

#include "region.h"

#define SIP_FN			0x82000010U
#define SIP_HVC_FN		0x82000011U	/* another, so the trace can tell */
#define SIP64_SVE_FN		0xc2010010U	/* SMC64, SVE hint (bit 16) */
#define TOS_YIELD_FN		0x32000010U	/* trusted OS, yielding */
#define TRNG_VERSION_FN		0x84000050U
#define OPTEE_CALL_WITH_ARG	0x32000004U
#define OPTEE_RETURN_FROM_RPC	0x32000003U
#define OPTEE_CALL_WITH_REGD_ARG 0x32000013U
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

/* struct scmi_shared_mem (drivers/firmware/arm_scmi/shmem.c) */
#define SCMI_SHMEM_CHAN_STATUS	0x04
#define SCMI_SHMEM_FLAGS	0x10
#define SCMI_SHMEM_LENGTH	0x14
#define SCMI_SHMEM_HEADER	0x18
#define SCMI_SHMEM_PAYLOAD	0x1c

/*
 * One SCMI message on the channel of node @path: protocol @proto, message
 * @msg, token @token, first payload word @word0; @wrong: x2 one word off
 * the shared memory's offset (-param only)
 */
static void scmi_call(const char *path, u32 proto, u32 msg, u32 token,
		      s32 word0, bool wrong)
{
	struct device_node *np = of_find_node_by_path(path), *shm;
	struct arm_smccc_res res;
	struct resource r;
	void __iomem *p;
	u64 page = 0, off = 0;
	u32 fid;

	shm = np ? of_parse_phandle(np, "shmem", 0) : NULL;
	if (!shm || of_property_read_u32(np, "arm,smc-id", &fid) ||
	    of_address_to_resource(shm, 0, &r))
		goto out;
	p = ioremap(r.start, resource_size(&r));
	if (!p)
		goto out;
	iowrite32(0, p + SCMI_SHMEM_CHAN_STATUS);	/* busy */
	iowrite32(0, p + SCMI_SHMEM_FLAGS);
	iowrite32(0xffffffff, p + SCMI_SHMEM_LENGTH);
	iowrite32(msg | proto << 10 | token << 18, p + SCMI_SHMEM_HEADER);
	iowrite32(word0, p + SCMI_SHMEM_PAYLOAD);
	if (of_device_is_compatible(np, "arm,scmi-smc-param")) {
		page = r.start >> 12;
		off = (r.start & 0xfff) + (wrong ? 4 : 0);
	}
	arm_smccc_smc(fid, page, off, 0, 0, 0, 0, 0, &res);
	iounmap(p);
	pr_info("%s %pOFn fid=0x%x protocol=0x%x msg=0x%x token=%u word0=%d x0=0x%lx\n",
		wrong ? "scmi_wrong" : "scmi", np, fid, proto, msg, token,
		word0, res.a0);
out:
	of_node_put(shm);
	of_node_put(np);
}

static void workaround_1(void *unused)
{
	struct arm_smccc_res res;

	arm_smccc_smc(WORKAROUND_1_FN, 0, 0, 0, 0, 0, 0, 0, &res);
}

static int decode_calls(void)
{
	struct resource hyp;
	u64 page, base;
	void *va;
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

	/* CLOCK_ATTRIBUTES (clock protocol 0x14, message 3), clock 7 */
	scmi_call("/firmware/scmi", 0x14, 3, 517, 7, false);
	/* PERF_LEVEL_GET (performance 0x13, message 8), domain 2 */
	scmi_call("/firmware/scmi-param", 0x13, 8, 1023, 2, false);
	scmi_call("/firmware/scmi-param", 0x13, 8, 1, 2, true);

	page = __get_free_page(GFP_KERNEL);
	if (!page)
		return -ENOMEM;
	va = test_map_region(HYPTRACE_HYP_MEM_COMPATIBLE, &hyp);
	if (IS_ERR(va)) {
		free_page(page);
		return PTR_ERR(va);
	}
	memunmap(va);
	base = hyp.start + 0x1000;
	probe("optee_arg", OPTEE_CALL_WITH_ARG,
	      virt_to_phys((void *)page) >> 32,
	      (u32)virt_to_phys((void *)page), 0, false);
	probe("optee_regd", OPTEE_CALL_WITH_REGD_ARG, 0x1234, 0, 0x5678, false);
	probe("optee_resume", OPTEE_RETURN_FROM_RPC, 0, 0, 0x3, false);
	probe("optee_hyp", OPTEE_CALL_WITH_ARG, base >> 32, (u32)base, 0,
	      false);
	free_page(page);
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
