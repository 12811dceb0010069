/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hyptrace hypercall ABI: what the host issues with HVC #0 and what the
 * hypervisor answers. Shared, unchanged, by the hypervisor and the host module.
 *
 * All calls are SMCCC fast calls in the vendor-specific hypervisor service
 * range (owner 6). Arguments are in x1..x4, the status in x0 (0 or one of
 * the negative HYPTRACE_RET_* codes below), results in x1..x3. Every other
 * register is preserved.
 *
 * Discovery
 *   HYPTRACE_CALL_UID (0x8600ff01)
 *	x0..x3 = the hyptrace UID below. A host finds hyptrace by this, never
 *	by probing other IDs: any other hypervisor answers differently.
 *   HYPTRACE_CALL_REVISION (0x8600ff03)
 *	x0 = major, x1 = minor of the ABI.
 *   HYPTRACE_CALL_VERSION (0xc6000000)
 *	x1 = HYPTRACE_ABI_VERSION, x2 = number of CPUs the hypervisor
 *	manages, x3 = HYPTRACE_FEATURE_* bits.
 *
 * CPU numbers, here and in every call that takes one, are Linux's logical
 * CPU numbers on arm64 with a device tree: the boot CPU is 0, the other
 * /cpus entries follow in device-tree order.
 *   HYPTRACE_CALL_CPU_MPIDR (0xc600000b, x1 = cpu) (ABI 1.2)
 *	x1 = the MPIDR_EL1 affinity (Aff3..Aff0) of that CPU, so that a host
 *	can check that its numbers name the same CPUs; all ones
 *	(HYPTRACE_MPIDR_NONE) for a /cpus entry that has a number but no
 *	usable reg, which Linux never starts. INVALID for a cpu at or
 *	above VERSION's x2.
 *
 * Debugging (ABI 1.3)
 *   HYPTRACE_CALL_IMAGE_SUM (0xc600000c, no arguments; x1..x4 ignored)
 *	x1 = 64-bit FNV-1a (offset basis 0xcbf29ce484222325, prime
 *	0x100000001b3) of the hypervisor's read-only image, the bytes from
 *	its first to the end of its read-only data, in address order;
 *	x2 = how many bytes that is; x3 = 0 while the memory canary (the
 *	free memory of the hypervisor's region, filled with a
 *	pattern at boot) is intact, else the address of its first 8-byte
 *	word that changed. The sum is fixed once the hypervisor runs:
 *	tests ask for it before and after an attack and compare. It reads
 *	the whole region: a debug call, not for hot paths. It takes no
 *	lock, so x3 may report a change when a TRACE_LOAD or TRACE_UNLOAD
 *	on another CPU takes or gives back memory meanwhile: ask again
 *	when nothing else runs.
 *
 * Tracing (0xc6000001..0xc600000a).
 *   HYPTRACE_CALL_TRACE_QUERY
 *	x1 = carve-out physical base, x2 = carve-out size in bytes,
 *	x3 = HYPTRACE_QUERY_* fields (ABI version, CPUs, events, page shift).
 *   HYPTRACE_CALL_TRACE_LOAD (x1 = bytes per CPU, x2 = HYPTRACE_LOAD_*)
 *	Carves a meta page and max(ceil(x1 / 4080), 2) + 1 data pages per CPU
 *	out of the carve-out and writes, at its start, the descriptor of all
 *	of them (struct rb_trace_desc, shared/trace_desc.h) with physical
 *	addresses. x1 = descriptor physical address, x2 = its size, x3 = 0.
 *	Writing stays off until TRACE_ENABLE. BUSY if already loaded,
 *	NO_MEMORY if the pages do not fit.
 *	With HYPTRACE_LOAD_ADOPT (ABI 1.4), while the early buffer is loaded
 *	and nobody has adopted it yet (TRACE_EARLY): x1, x2 describe it, x3 =
 *	1, x1 and the other flags are ignored, and the buffer is the caller's
 *	from then on, as if it had loaded it; writing goes on as it was.
 *	Otherwise the flag changes nothing.
 *   HYPTRACE_CALL_TRACE_UNLOAD
 *	Stops writing on every CPU (waiting for a write in flight) and gives
 *	the pages back. NOT_LOADED if nothing is loaded.
 *   HYPTRACE_CALL_TRACE_ENABLE (x1 = 0 or 1)
 *	Start or stop writing on every CPU. Enabling while unloaded answers
 *	NOT_LOADED; disabling while unloaded succeeds.
 *   HYPTRACE_CALL_TRACE_SWAP_READER (x1 = cpu, x2 = HYPTRACE_SWAP_*,
 *				    x3 = bytes read)
 *	Hand the oldest unread page of that CPU to the reader (meta-page
 *	reader.id and reader.lost_events updated). AGAIN if that CPU has no
 *	page to give yet. With HYPTRACE_SWAP_READ (ABI 1.6), x3 says how
 *	many bytes of its reader page's data the caller has consumed, and
 *	the answer is UNREAD, with nothing swapped, when the writer committed
 *	more than that there: a reader page handed out while the writer was
 *	on it can be filled after the reader last looked at its commit, and
 *	giving it back then would lose those events without a count. Other
 *	bits of x2 are INVALID. Without the flag (the kernel's reader, which
 *	reads the meta page's entries before the commit and so cannot be
 *	caught that way) the page is taken back whatever it holds.
 *   HYPTRACE_CALL_TRACE_RESET (x1 = cpu)
 *	Empty that CPU's buffer and zero its counters.
 *   HYPTRACE_CALL_TRACE_ENABLE_EVENT (x1 = event id, x2 = 0 or 1)
 *	Also allowed while unloaded: the setting is kept.
 *   HYPTRACE_CALL_TRACE_UPDATE_CLOCK (x1 = mult, x2 = shift,
 *				       x3 = epoch ns, x4 = epoch counter)
 *	From then on an event at counter value c is stamped
 *	epoch_ns + ((c - epoch_counter) * mult >> shift), on every CPU at once.
 *	mult must be non-zero and shift below 64 (else INVALID). CLOCK_STEP,
 *	and the clock stays as it was, if the new clock does not run at one
 *	second per CNTFRQ_EL0 counter ticks within 1/HYPTRACE_CLOCK_RATE_SLACK
 *	(or takes 2^31 ns or more per tick, which no rate check can pass),
 *	or if, read at the current counter value, it is behind the clock it
 *	replaces or ahead of it by more than HYPTRACE_CLOCK_MAX_STEP_NS: time
 *	never goes backwards nor leaps. The first update after a TRACE_LOAD
 *	is only held to the rate: that buffer has no stamp yet.
 *	The first update while the early buffer is loaded (ABI 1.4) is held
 *	to the rate only, and moves the early buffer onto the new clock: its
 *	events were stamped with the counter at CNTFRQ_EL0 from 0 (the boot
 *	clock), and every page the writer owns gets the difference of the
 *	two clocks added to its time stamp. Pages that started before the
 *	new clock's zero cannot be stamped on it: they start at 0 from the
 *	first early page on, keeping their spacing (scaled down if they
 *	would reach the first page placed exactly), so all equally late. A
 *	page that would start before the last event of the page before it
 *	starts there instead. x1 = the difference (ns, signed), x2 = how late
 *	the pages from before the zero are (ns; 0: none), x3 = the most a
 *	page placed exactly was moved late by the rule before (ns). Other
 *	updates: x1..x3 = 0.
 *   HYPTRACE_CALL_TRACE_WRITE_EVENT (x1 = u64)
 *	Writes a selftest event carrying x1 on the calling CPU, if that event
 *	is enabled and tracing is on.
 *   HYPTRACE_CALL_TRACE_EARLY (0xc600000d, no arguments) (ABI 1.4)
 *	The early buffer, which the hypervisor loads and starts writing at
 *	its own boot when the kernel command line says hyptrace.early=:
 *	x1 = HYPTRACE_EARLY_* state, x2 = the events it was started with
 *	(bit n = event id n), x3 = its bytes per CPU (as TRACE_LOAD's x1).
 *	x2, x3 = 0 in state NONE.
 *   HYPTRACE_CALL_TRACE_LAST_BOOT (0xc600000e, x1 = op, x2 = cpu) (ABI 1.5)
 *	The previous boot's buffer. At its boot the hypervisor looks for the
 *	buffer that was loaded when the machine last reset with RAM kept (a
 *	warm reset: PSCI SYSTEM_RESET, a watchdog, a panic with panic=N),
 *	checks every data page as the kernel checks a persistent ring buffer
 *	(commit inside the page, every record's length inside the commit,
 *	known types, time never going backwards, pages in time order), drops
 *	the pages that fail, and keeps the rest out of the way of new loads
 *	until it is released. It is read-only: nothing writes to it again.
 *	x1 = HYPTRACE_LAST_BOOT_QUERY: x1 = physical address of its
 *	descriptor (0: there is no last boot), x2 = the descriptor's size,
 *	x3 = pages dropped by the checks, all CPUs together. The descriptor
 *	has TRACE_LOAD's form and size. For each CPU, page_va[0..k-1] are the
 *	k pages kept, oldest first, and page_va[0] is the reader page to
 *	begin with. The pages after them are empty: commit 0, time_stamp the
 *	last kept event's. Each CPU's meta page reads as a buffer with
 *	nothing more to write: reader.id = 0, entries = the events on the
 *	kept pages, overrun = 0, pages_touched = k, pages_lost = the pages
 *	of that CPU the checks dropped.
 *	x1 = HYPTRACE_LAST_BOOT_SWAP, x2 = cpu: hand that CPU's reader the
 *	next kept page (meta reader.id + 1, reader.read = 0,
 *	reader.lost_events = 0); AGAIN when it already has the newest one.
 *	x1 = HYPTRACE_LAST_BOOT_RELEASE: give the pages back to the carve-out;
 *	QUERY answers 0 from then on.
 *	SWAP and RELEASE answer NOT_LOADED when there is no last boot; a cpu
 *	or op out of range is INVALID. TRACE_LOAD places a new buffer beside
 *	the last boot's pages while they are kept (NO_MEMORY if it does not
 *	fit there; RELEASE, then load again).
 *   HYPTRACE_CALL_HOST_PANIC (0xc600000f, no arguments) (ABI 1.5)
 *	The host is going down (its panic notifier): traced like every call
 *	(hyp_enter/hyp_exit with this function ID), then the loaded buffer
 *	is cleaned to the point of coherency so that the events survive a
 *	reset that keeps RAM but not the caches. PSCI SYSTEM_RESET does the
 *	same before it goes to the firmware.
 *   HYPTRACE_CALL_HYP_LOG (0xc6000010, x1 = log, x2 = pos) (ABI 1.7)
 *	The hypervisor's log: every character it printed, whether or not it
 *	had a console to print on (an unknown or absent UART), kept in a
 *	ring of a few KiB in its own memory, '\n' ending each line.
 *	Positions count bytes from the log's beginning. x1 = the position of
 *	the first byte returned (x2 of the call, or the oldest byte the ring
 *	still holds if that is later), x2 = the log's end (the position of
 *	the next byte to be written), x3 = the bytes from x1 on, up to 8,
 *	the first in bits 0-7; those at or past x2 read 0.
 *	x1 = HYPTRACE_HYP_LOG_THIS_BOOT: this boot's log, growing.
 *	x1 = HYPTRACE_HYP_LOG_LAST_BOOT: the log of the boot before, if it
 *	ended in a hypervisor panic and the reset kept RAM; fixed, and
 *	starting at 0. NOT_LOADED if there is none.
 *	AGAIN if the hypervisor printed so much during the call that it
 *	lapped the bytes asked for several times: ask again. A log out of
 *	range is INVALID.
 *   HYPTRACE_CALL_TRACE_HIDE_COUNTERS (x1 = cpu, x2 = 0 or 1) (ABI 1.1)
 *	1: from now on that CPU's counters (entries, overrun, pages) are
 *	published in the meta page's extension (struct rb_meta_ext) and the
 *	meta page shows zeros, so that the kernel's reader sees nothing to
 *	read while another reader consumes the pages; 0: back in the meta
 *	page. Until the next load, which starts with them shown.
 *
 * MMIO tracing (Documentation/guides/mmio-trace.md)
 *   HYPTRACE_CALL_MMIO_REGION (0xc6000011, x1 = HYPTRACE_MMIO_ADD or
 *	HYPTRACE_MMIO_REMOVE, x2 = physical base, x3 = size in bytes,
 *	x4 = HYPTRACE_MMIO_R and/or HYPTRACE_MMIO_W, for ADD)
 *	ADD: from now on every access by EL1 or EL0 to the pages of
 *	[base, base + size) traps to the hypervisor, which performs it and
 *	records the accesses inside the range that x4 names as mmio_read
 *	and mmio_write events. DENIED if any byte is RAM (the hypervisor's
 *	region and the trace carve-out among it) or a debug window stage 2
 *	keeps from EL1; BUSY if a page is traced already; NO_MEMORY if the
 *	region table or the spare stage-2 tables are used up; INVALID for
 *	a size of 0, a range that wraps or is beyond stage 2, or bad x1/x4.
 *	REMOVE: the region of exactly that base and size, its pages mapped
 *	back; INVALID if there is none.
 *   HYPTRACE_CALL_MMIO_QUERY (0xc6000012, x1 = slot)
 *	x1 = base, x2 = size (0: an empty slot), x3 = mode (bits 0-1) |
 *	accesses recorded << 2, of slot x1 of HYPTRACE_MMIO_SLOTS; INVALID
 *	from HYPTRACE_MMIO_SLOTS on.
 *
 * TLB and cache maintenance (Documentation/guides/cpu-state.md) (ABI 1.9)
 *   HYPTRACE_CALL_MAINT_WINDOW (0xc6000013, x1 = HYPTRACE_MAINT_ARM or
 *	HYPTRACE_MAINT_QUERY, x2 = nanoseconds, for ARM)
 *	On the calling CPU only. ARM with x2 = 1..HYPTRACE_MAINT_MAX_NS:
 *	for that long from now, EL1's and EL0's TLBI and DC/IC by VA trap
 *	and are recorded, runs of one operation coalesced into maint_run
 *	events (an armed window gets the new deadline); x2 = 0 closes the
 *	window now. Closing, or the first trap or query at or after the
 *	deadline, ends the run in progress (its event written) and takes
 *	the traps off. QUERY changes nothing else. Both: x1 = nanoseconds
 *	left on this CPU, 0 once closed. INVALID for another x1 or x2 above
 *	HYPTRACE_MAINT_MAX_NS; x3, x4 ignored.
 *
 * Any other function ID answers SMCCC_RET_NOT_SUPPORTED (-1); an argument
 * out of range answers SMCCC_RET_INVALID_PARAMETER (-3).
 */
#ifndef HYPTRACE_SHARED_HYPTRACE_ABI_H
#define HYPTRACE_SHARED_HYPTRACE_ABI_H

#include "smccc.h"

#define HYPTRACE_ABI_MAJOR		1
#define HYPTRACE_ABI_MINOR		9
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

#define HYPTRACE_CALL(n)		SMCCC_ID(1, SMCCC_OWNER_VENDOR_HYP, (n))
#define HYPTRACE_CALL_VERSION		HYPTRACE_CALL(0)
#define HYPTRACE_CALL_TRACE_QUERY	HYPTRACE_CALL(1)
#define HYPTRACE_CALL_TRACE_LOAD	HYPTRACE_CALL(2)
#define HYPTRACE_CALL_TRACE_UNLOAD	HYPTRACE_CALL(3)
#define HYPTRACE_CALL_TRACE_ENABLE	HYPTRACE_CALL(4)
#define HYPTRACE_CALL_TRACE_SWAP_READER	HYPTRACE_CALL(5)
#define HYPTRACE_CALL_TRACE_RESET	HYPTRACE_CALL(6)
#define HYPTRACE_CALL_TRACE_ENABLE_EVENT HYPTRACE_CALL(7)
#define HYPTRACE_CALL_TRACE_UPDATE_CLOCK HYPTRACE_CALL(8)
#define HYPTRACE_CALL_TRACE_WRITE_EVENT	HYPTRACE_CALL(9)
#define HYPTRACE_CALL_TRACE_HIDE_COUNTERS HYPTRACE_CALL(10)
#define HYPTRACE_CALL_CPU_MPIDR		HYPTRACE_CALL(11)
#define HYPTRACE_CALL_IMAGE_SUM		HYPTRACE_CALL(12)
#define HYPTRACE_CALL_TRACE_EARLY	HYPTRACE_CALL(13)
#define HYPTRACE_CALL_TRACE_LAST_BOOT	HYPTRACE_CALL(14)
#define HYPTRACE_CALL_HOST_PANIC	HYPTRACE_CALL(15)
#define HYPTRACE_CALL_HYP_LOG		HYPTRACE_CALL(16)
#define HYPTRACE_CALL_MMIO_REGION	HYPTRACE_CALL(17)
#define HYPTRACE_CALL_MMIO_QUERY	HYPTRACE_CALL(18)
#define HYPTRACE_CALL_MAINT_WINDOW	HYPTRACE_CALL(19)

/* HYPTRACE_CALL_CPU_MPIDR x1 for a CPU number without a CPU */
#define HYPTRACE_MPIDR_NONE		(~0UL)

/* HYPTRACE_CALL_VERSION x3 */
#define HYPTRACE_FEATURE_TRACING	(1U << 0)

/* HYPTRACE_CALL_TRACE_QUERY x3 */
#define HYPTRACE_QUERY_PAGE_SHIFT(x3)	((unsigned int)((x3) & 0xff))
#define HYPTRACE_QUERY_NR_CPUS(x3)	((unsigned int)(((x3) >> 8) & 0xff))
#define HYPTRACE_QUERY_NR_EVENTS(x3)	((unsigned int)(((x3) >> 16) & 0xffff))
#define HYPTRACE_QUERY_ABI(x3)		((unsigned int)((x3) >> 32))
#define HYPTRACE_QUERY_PACK(page_shift, nr_cpus, nr_events)		\
	((unsigned long)(page_shift) | ((unsigned long)(nr_cpus) << 8) |	\
	 ((unsigned long)(nr_events) << 16) |				\
	 ((unsigned long)HYPTRACE_ABI_VERSION << 32))

/* HYPTRACE_CALL_TRACE_LOAD x2 */
#define HYPTRACE_LOAD_NO_OVERWRITE	(1U << 0)	/* drop newest, not oldest */
#define HYPTRACE_LOAD_ADOPT		(1U << 1)	/* take the early buffer */
#define HYPTRACE_LOAD_FLAGS		(HYPTRACE_LOAD_NO_OVERWRITE |	\
					 HYPTRACE_LOAD_ADOPT)

/* HYPTRACE_CALL_TRACE_SWAP_READER x2 */
#define HYPTRACE_SWAP_READ		(1U << 0)	/* x3: bytes consumed */

/* HYPTRACE_CALL_TRACE_EARLY x1 */
#define HYPTRACE_EARLY_NONE		0	/* none started, or it is gone */
#define HYPTRACE_EARLY_PENDING		1	/* loaded, nobody adopted it */
#define HYPTRACE_EARLY_ADOPTED		2	/* a TRACE_LOAD took it */

/* HYPTRACE_CALL_HYP_LOG x1 */
#define HYPTRACE_HYP_LOG_THIS_BOOT	0
#define HYPTRACE_HYP_LOG_LAST_BOOT	1

/* HYPTRACE_CALL_TRACE_LAST_BOOT x1 */
#define HYPTRACE_LAST_BOOT_QUERY	0
#define HYPTRACE_LAST_BOOT_SWAP		1
#define HYPTRACE_LAST_BOOT_RELEASE	2

/* HYPTRACE_CALL_MMIO_REGION x1, x4; HYPTRACE_CALL_MMIO_QUERY */
#define HYPTRACE_MMIO_ADD		0
#define HYPTRACE_MMIO_REMOVE		1
#define HYPTRACE_MMIO_R			(1U << 0)	/* record reads */
#define HYPTRACE_MMIO_W			(1U << 1)	/* record writes */
#define HYPTRACE_MMIO_SLOTS		16
#define HYPTRACE_MMIO_QUERY_MODE(x3)	((unsigned int)((x3) & 3))
#define HYPTRACE_MMIO_QUERY_HITS(x3)	((x3) >> 2)

/* HYPTRACE_CALL_MAINT_WINDOW x1, x2 */
#define HYPTRACE_MAINT_ARM		0
#define HYPTRACE_MAINT_QUERY		1
#define HYPTRACE_MAINT_MAX_NS		(60ULL * 1000000000ULL)	/* 60 s */

/*
 * The kernel command line option that names the devices to trace from
 * boot (Documentation/guides/mmio-trace.md), SPEC[,SPEC...], each SPEC a
 * device-tree path, compat=COMPATIBLE or BASE+SIZE, then :r, :w or :rw.
 */
#define HYPTRACE_MMIO_BOOTARG		"hyptrace.mmio="

/*
 * The kernel command line option that starts early capture, read by the
 * hypervisor from /chosen/bootargs (Documentation/guides/early-capture.md):
 *	hyptrace.early=EVENTS[,size=KB]
 * EVENTS is "all" or event names joined by '+'; KB is per CPU.
 */
#define HYPTRACE_EARLY_BOOTARG		"hyptrace.early="
#define HYPTRACE_EARLY_DEFAULT_KB	64

/*
 * Status codes in x0. -1 and -3 are SMCCC's own; the rest continue the
 * sequence for the states a tracing call can find the hypervisor in.
 */
#define HYPTRACE_RET_SUCCESS		SMCCC_RET_SUCCESS
#define HYPTRACE_RET_NOT_SUPPORTED	SMCCC_RET_NOT_SUPPORTED
#define HYPTRACE_RET_INVALID		SMCCC_RET_INVALID_PARAMETER
#define HYPTRACE_RET_NO_MEMORY		(-4)	/* buffers do not fit */
#define HYPTRACE_RET_BUSY		(-5)	/* already loaded */
#define HYPTRACE_RET_NOT_LOADED		(-6)	/* needs a loaded buffer */
#define HYPTRACE_RET_AGAIN		(-7)	/* nothing to swap yet */
#define HYPTRACE_RET_CLOCK_STEP		(-8)	/* clock backwards or leaping */
#define HYPTRACE_RET_UNREAD		(-9)	/* read the reader page first */
#define HYPTRACE_RET_DENIED		(-10)	/* memory that may not be traced */

/*
 * HYPTRACE_CALL_TRACE_UPDATE_CLOCK's bounds: the largest step forward
 * (the host re-anchors every 500 ms with corrections of nanoseconds), and
 * the rate's tolerance, 1/8 (NTP slews by at most 500 ppm).
 */
#define HYPTRACE_CLOCK_MAX_STEP_NS	(4ULL * 1000000000ULL)
#define HYPTRACE_CLOCK_RATE_SLACK	8

/*
 * The device-tree node the hypervisor adds under /reserved-memory for the
 * trace carve-out. The host module looks it up by this compatible string.
 */
#define HYPTRACE_CARVEOUT_COMPATIBLE	"hyptrace,trace-carveout"
#define HYPTRACE_HYP_MEM_COMPATIBLE	"hyptrace,hypervisor"

#endif /* HYPTRACE_SHARED_HYPTRACE_ABI_H */
