// SPDX-License-Identifier: GPL-2.0
/*
 * hyp/core/fw_optee.c on the host: OP-TEE requests followed through their
 * RPCs as the hypervisor sees them, with the answers a real OP-TEE gives
 * (QEMU has none, so tests/boot/45-fw-decode.sh sees requests of one SMC
 * only). Each case drives fw_optee_begin()/fw_optee_end() with the
 * function IDs and x0 values of optee_smc.h, at set times, and checks the
 * fw_optee records written: one at a request's end with its RPCs counted,
 * none before; a request left open recorded as abandoned when its CPU
 * starts the next, which is then whole; a RETURN_FROM_RPC with nothing
 * open recorded as resumed; w0 decides (a 64-bit -1 ends a request);
 * and nothing at all while the event is off.
 */
#include <string.h>

#include "fw_trace.h"
#include "check.h"

#define RETURN_FROM_RPC		0x32000003U
#define CALL_WITH_ARG		0x32000004U
#define CALL_WITH_RPC_ARG	0x32000012U
#define CALL_WITH_REGD_ARG	0x32000013U
#define RPC_ALLOC		0xffff0000ULL
#define RPC_FREE		0xffff0002ULL
#define RPC_FOREIGN_INTR	0xffff0004ULL
#define RPC_CMD			0xffff0005ULL
#define UNKNOWN_FUNCTION	0xffffffffULL

struct test_cpu test_cpu;
struct hyp_event_fw_optee test_records[TEST_MAX_RECORDS];
unsigned int test_nr_records;
bool test_event_on = true;
u64 test_now_ns, test_fw_ns;

static void reset(void)
{
	memset(&test_cpu, 0, sizeof(test_cpu));
	memset(test_records, 0, sizeof(test_records));
	test_nr_records = 0;
	test_event_on = true;
}

/*
 * One SMC: @fid at @at ns, back with @ret after @fw ns in firmware.
 * Returns whether the decoder took it.
 */
static bool smc(u32 fid, u64 at, u64 fw, u64 ret)
{
	u64 r[1] = { ret };

	test_now_ns = at;
	if (!fw_optee_begin(fid))
		return false;
	test_now_ns = at + fw;
	test_fw_ns = fw;
	fw_optee_end(r);
	return true;
}

static void check_record(unsigned int i, u32 func, u64 result, u32 rpcs,
			 u32 intr, u64 fw_ns, u64 span_ns, u16 flags)
{
	const struct hyp_event_fw_optee *e = &test_records[i];

	EXPECT(i < test_nr_records, "record %u missing (%u written)", i,
	       test_nr_records);
	EXPECT(e->func_id == func, "record %u: func_id 0x%x, want 0x%x", i,
	       e->func_id, func);
	EXPECT(e->result == result, "record %u: result 0x%llx, want 0x%llx",
	       i, (unsigned long long)e->result, (unsigned long long)result);
	EXPECT(e->rpcs == rpcs && e->intr_rpcs == intr,
	       "record %u: rpcs %u/%u, want %u/%u", i, e->rpcs, e->intr_rpcs,
	       rpcs, intr);
	EXPECT(e->fw_ns == fw_ns, "record %u: fw_ns %llu, want %llu", i,
	       (unsigned long long)e->fw_ns, (unsigned long long)fw_ns);
	EXPECT(e->span_ns == span_ns, "record %u: span_ns %llu, want %llu", i,
	       (unsigned long long)e->span_ns, (unsigned long long)span_ns);
	EXPECT(e->flags == flags, "record %u: flags 0x%x, want 0x%x", i,
	       e->flags, flags);
}

/* A request through an ALLOC, an interrupt and a command, to OK */
static void test_rpc_chain(void)
{

	ck_begin();
	reset();
	smc(CALL_WITH_ARG, 1000, 10, RPC_ALLOC);
	smc(RETURN_FROM_RPC, 2000, 20, RPC_FOREIGN_INTR);
	smc(RETURN_FROM_RPC, 3000, 30, RPC_CMD);
	EXPECT(test_nr_records == 0, "%u records before the request ended",
	       test_nr_records);
	smc(RETURN_FROM_RPC, 4000, 40, RPC_FREE);
	smc(RETURN_FROM_RPC, 5000, 50, 0);
	EXPECT(test_nr_records == 1, "%u records for one request",
	       test_nr_records);
	check_record(0, CALL_WITH_ARG, 0, 3, 1, 150, 4050, 0);
	EXPECT(!test_cpu.fw.optee.open, "the span stays open after its end");
	/* the next request starts afresh */
	smc(CALL_WITH_REGD_ARG, 9000, 5, 0);
	check_record(1, CALL_WITH_REGD_ARG, 0, 0, 0, 5, 5, 0);
	ck_end("a request through 4 RPCs is one record at its end, RPCs counted, interrupts apart");
}

/* The thread moved, or its CPU went off: the next request on the CPU */
static void test_abandoned(void)
{

	ck_begin();
	reset();
	smc(CALL_WITH_ARG, 1000, 10, RPC_CMD);
	smc(CALL_WITH_RPC_ARG, 5000, 7, RPC_ALLOC);
	EXPECT(test_nr_records == 1, "%u records after the second request's RPC",
	       test_nr_records);
	check_record(0, CALL_WITH_ARG, RPC_CMD, 1, 0, 10, 4000,
		     FW_OPTEE_F_ABANDONED);
	smc(RETURN_FROM_RPC, 6000, 3, 0xffff0003ULL);	/* an RPC, function 3 */
	smc(RETURN_FROM_RPC, 7000, 2, 2);		/* OPTEE_SMC_RETURN_EBUSY */
	check_record(1, CALL_WITH_RPC_ARG, 2, 2, 0, 12, 2002, 0);
	ck_end("a request left open is recorded as abandoned by the next, which is whole");
}

/* A RETURN_FROM_RPC on a CPU where nothing is open */
static void test_resumed(void)
{

	ck_begin();
	reset();
	smc(RETURN_FROM_RPC, 100, 8, RPC_CMD);
	smc(RETURN_FROM_RPC, 200, 9, 0);
	EXPECT(test_nr_records == 1, "%u records", test_nr_records);
	check_record(0, RETURN_FROM_RPC, 0, 1, 0, 17, 109, FW_OPTEE_F_RESUMED);
	ck_end("a RETURN_FROM_RPC with nothing open opens a span marked resumed");
}

/* SMC32: w0 decides; a 64-bit -1 is UNKNOWN_FUNCTION, not an RPC */
static void test_w0(void)
{

	ck_begin();
	reset();
	smc(CALL_WITH_ARG, 100, 1, ~0ULL);
	check_record(0, CALL_WITH_ARG, ~0ULL, 0, 0, 1, 1, 0);
	smc(CALL_WITH_ARG, 200, 1, UNKNOWN_FUNCTION);
	check_record(1, CALL_WITH_ARG, UNKNOWN_FUNCTION, 0, 0, 1, 1, 0);
	smc(CALL_WITH_ARG, 300, 1, 0xdead0000ffff0005ULL);
	EXPECT(test_nr_records == 2, "an RPC code with junk above w0 ended the request");
	smc(RETURN_FROM_RPC, 400, 1, 0);
	check_record(2, CALL_WITH_ARG, 0, 1, 0, 2, 101, 0);
	ck_end("w0 alone says RPC: 64-bit -1 and UNKNOWN_FUNCTION end a request, bits above w0 do not count");
}

/* Off: nothing taken, nothing written, other functions never */
static void test_off(void)
{

	ck_begin();
	reset();
	test_event_on = false;
	EXPECT(!smc(CALL_WITH_ARG, 100, 1, RPC_CMD), "taken while off");
	EXPECT(!test_cpu.fw.optee.open, "a span opened while off");
	test_event_on = true;
	EXPECT(!smc(0x32000010U, 100, 1, 0), "a yielding call OP-TEE does not define taken");
	EXPECT(!smc(0x82000010U, 100, 1, 0), "a SiP call taken");
	EXPECT(test_nr_records == 0, "%u records", test_nr_records);
	ck_end("off, or another function: not taken, nothing recorded");
}

int main(void)
{
	test_rpc_chain();
	test_abandoned();
	test_resumed();
	test_w0();
	test_off();
	return ck_exit();
}
