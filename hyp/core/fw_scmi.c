// SPDX-License-Identifier: GPL-2.0
/*
 * SCMI over SMC, decoded: which protocol and message EL1 asked the SCMI
 * platform for, with which token, and the status it answered (fw_scmi).
 * The message is not in the registers but in the channel's shared memory
 * (Arm DEN0056, "Shared memory based transport"; Linux
 * drivers/firmware/arm_scmi/shmem.c, struct scmi_shared_mem): the header
 * is read before the SMC goes to firmware, the status (the response's
 * first payload word) after it returns.
 *
 * The shared memory is the kernel's to write, and the hypervisor trusts
 * none of it: it reads two words at fixed offsets, never the length or
 * anything a field points to, writes nothing there, and the only use of
 * what it read is the record. The pages are mapped at boot, read-only and
 * Device-nGnRE, the type Linux maps them with (devm_ioremap() in
 * shmem.c): the two mappings agree (Arm ARM, "Mismatched memory
 * attributes": a Normal cacheable alias of Linux's Device mapping could
 * read a stale line, or hold one that later hides the platform's answer
 * from Linux), a read sees what the kernel wrote before its SMC, and
 * Device memory is never read speculatively, so nothing is fetched from
 * memory the firmware may keep (mmu.c).
 *
 * The channels come from the device tree at boot (dt_scmi.c) and never
 * change: every CPU reads the table without a lock.
 */
#include "fw_trace.h"
#include "io.h"
#include "pgtable.h"
#include "trap.h"

/* struct scmi_shared_mem: the words read, at fixed offsets */
#define SCMI_SHMEM_MSG_HEADER	0x18
#define SCMI_SHMEM_PAYLOAD	0x1c	/* a response's first word: status */

/* The message header (DEN0056 4.1.2) */
#define SCMI_HDR_MSG_ID		GENMASK(7, 0)
#define SCMI_HDR_PROTOCOL_ID	GENMASK(17, 10)
#define SCMI_HDR_TOKEN		GENMASK(27, 18)

/* -param: x1 the shared memory's page number, x2 its offset in the page */
#define SCMI_PARAM_PAGE_SHIFT	12

struct scmi_channel {
	u64 shmem;		/* physical address, mapped by fw_scmi_map() */
	u32 func_id;		/* arm,smc-id */
	bool param;		/* arm,scmi-smc-param: x1, x2 say which */
};

static struct scmi_channel scmi_channels[FW_SCMI_MAX_CHANNELS];
static unsigned int scmi_nr;

const char *fw_scmi_channel_add(u32 func_id, u64 shmem, bool param)
{
	if (scmi_nr == FW_SCMI_MAX_CHANNELS)
		return "too many SCMI channels";
	scmi_channels[scmi_nr++] = (struct scmi_channel) {
		.shmem = shmem, .func_id = func_id, .param = param,
	};
	return NULL;
}

/*
 * The header's page of each channel, read-only Device: unless it is mapped
 * already (two channels in one page, or a page the console shares)
 */
void fw_scmi_map(struct pgtable *el2_map, u64 prot_device_ro)
{
	unsigned int i, level;
	u64 page, *pte;

	for (i = 0; i < scmi_nr; i++) {
		page = ALIGN_DOWN(scmi_channels[i].shmem, SZ_4K);
		pte = pgtable_walk(el2_map, page, &level);
		if (!(*pte & PTE_VALID))
			pgtable_map(el2_map, page, SZ_4K, prot_device_ro);
	}
}

/* The channel EL1's SMC @fid with @r names, or NULL */
static const struct scmi_channel *scmi_channel_of(u32 fid, const u64 *r)
{
	const struct scmi_channel *c;
	unsigned int i;

	for (i = 0; i < scmi_nr; i++) {
		c = &scmi_channels[i];
		if (c->func_id != fid)
			continue;
		if (!c->param ||
		    (r[2] < SZ_4K && !(r[1] >> (64 - SCMI_PARAM_PAGE_SHIFT)) &&
		     (r[1] << SCMI_PARAM_PAGE_SHIFT | r[2]) == c->shmem))
			return c;
	}
	return NULL;
}

bool fw_scmi_begin(const u64 *r, u32 fid, struct fw_call *call)
{
	const struct scmi_channel *c;

	if (!scmi_nr || !hyp_trace_on(fw_scmi))
		return false;
	c = scmi_channel_of(fid, r);
	if (!c)
		return false;
	call->scmi_shmem = c->shmem;
	call->scmi_header = mmio_read32(c->shmem + SCMI_SHMEM_MSG_HEADER);
	return fw_time_begin(true);
}

void fw_scmi_end(const u64 *r, u32 fid, const struct fw_call *call)
{
	u32 hdr = call->scmi_header;
	s32 status = (s32)mmio_read32(call->scmi_shmem + SCMI_SHMEM_PAYLOAD);

	hyp_trace(fw_scmi, .protocol = FIELD_GET(SCMI_HDR_PROTOCOL_ID, hdr),
		  .msg = FIELD_GET(SCMI_HDR_MSG_ID, hdr),
		  .token = FIELD_GET(SCMI_HDR_TOKEN, hdr), .status = status,
		  .func_id = fid, .ret = (s64)r[0], .fw_ns = fw_time_end());
}
