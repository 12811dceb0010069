// SPDX-License-Identifier: GPL-2.0
/*
 * The hypervisor's log: everything it prints, also kept in a ring in its
 * own memory, for boards whose UART it cannot drive and users who cannot
 * see the console. The host reads it with HYPTRACE_CALL_HYP_LOG
 * (shared/hyptrace_abi.h), eight bytes a call: stage 2 hides the region
 * from the host, and copying through registers exposes nothing else.
 *
 * The ring sits just below the trace's persistent record, at the end of
 * the hypervisor's region, where neither the image nor the allocator
 * reaches: after a reset that keeps RAM the next boot finds it. A boot
 * that panicked marks it and cleans it to the point of coherency; the next
 * boot keeps a copy of such a log for the host ("previous boot's
 * hypervisor log") before it starts its own. A log that did not end in a
 * panic is of no interest to the next boot and is overwritten.
 *
 * One writer at a time (the print lock, or the boot CPU alone), readers
 * without a lock: the writer publishes each byte with a release of the
 * head, and a reader checks after copying that the head has not lapped
 * what it copied. A reader never waits behind a print stuck on a slow UART.
 */
#include <string.h>
#include "cache.h"
#include "hyp_layout.h"
#include "hyp_log.h"
#include "shared/atomic.h"
#include "shared/hyptrace_abi.h"

#define HYP_LOG_MAGIC		0x31474f4c50594855UL	/* "UHYPLOG1" */
#define HYP_LOG_VERSION		1U
#define HYP_LOG_PANICKED	BIT(0)	/* this boot ended in hyp_panic() */
#define HYP_LOG_HEADER		64
#define HYP_LOG_TEXT		(HYP_LOG_SIZE - HYP_LOG_HEADER)
/*
 * What a reader can count on while the writer runs: the byte at the head
 * overwrites the oldest one before the head moves past it.
 */
#define HYP_LOG_LIVE		(HYP_LOG_TEXT - 1)
/* A reader lapped this many times in a row gives up (AGAIN) */
#define HYP_LOG_READ_TRIES	4

struct hyp_log_area {
	u64 magic;
	u32 version;
	u32 flags;			/* HYP_LOG_* */
	u64 head;			/* bytes written; the next at head % TEXT */
	u8 __pad[HYP_LOG_HEADER - 24];
	char text[HYP_LOG_TEXT];
};

_Static_assert(sizeof(struct hyp_log_area) == HYP_LOG_SIZE,
	       "the log fills its pages exactly");

static struct hyp_log_area *log_area;	/* NULL until hyp_log_init() */
static const char *prev_text;		/* the last boot's, if it panicked */
static u64 prev_len;

static struct hyp_log_area *area_at_region_end(void)
{
	return (struct hyp_log_area *)(hyp_layout.hyp_base + HYP_REGION_SIZE -
				       HYP_PERSIST_SIZE - HYP_LOG_SIZE);
}

/* The last boot's log's length, or 0 if it did not end in a panic */
static u64 previous_len(const struct hyp_log_area *a)
{
	u64 head = a->head;

	if (a->magic != HYP_LOG_MAGIC || a->version != HYP_LOG_VERSION ||
	    !(a->flags & HYP_LOG_PANICKED))
		return 0;
	return head > HYP_LOG_TEXT ? HYP_LOG_TEXT : head;
}

/*
 * Boot CPU, MMU off, first thing after hyp_mem_init(): the bytes
 * hyp_log_init() needs to keep the last boot's log, 0 if there is none to
 * keep. The caller allocates them (setup.c): the log is below the
 * allocator, which can panic, and so print.
 */
u64 hyp_log_last_boot_size(void)
{
	return previous_len(area_at_region_end());
}

/*
 * Start this boot's log; first keep the last boot's, oldest byte first,
 * in @keep (hyp_log_last_boot_size() bytes; NULL: not kept).
 */
void hyp_log_init(char *keep)
{
	struct hyp_log_area *a = area_at_region_end();
	u64 len = previous_len(a), head = a->head, i;

	prev_text = NULL;
	prev_len = 0;
	if (len && keep) {
		for (i = head - len; i < head; i++)
			keep[i - (head - len)] = a->text[i % HYP_LOG_TEXT];
		prev_text = keep;
		prev_len = len;
	}
	memset(a, 0, HYP_LOG_HEADER);
	a->magic = HYP_LOG_MAGIC;
	a->version = HYP_LOG_VERSION;
	log_area = a;
}

/* Under the print lock */
void hyp_log_putc(char c)
{
	struct hyp_log_area *a = log_area;

	if (!a)
		return;
	a->text[a->head % HYP_LOG_TEXT] = c;
	arch_store_release_u64(&a->head, a->head + 1);
}

/*
 * A panic: mark the log for the next boot and write it to the point of
 * coherency, for boards whose reset keeps RAM but not the caches. Before
 * and after the panic's own lines.
 */
void hyp_log_panic(void)
{
	struct hyp_log_area *a = log_area;

	if (!a)
		return;
	a->flags |= HYP_LOG_PANICKED;
	dcache_clean_range((u64)a, (u64)a + HYP_LOG_SIZE);
}

/* Whether the last boot's log is kept: it ended in a panic */
bool hyp_log_last_boot_kept(void)
{
	return prev_len;
}

/* Eight bytes of this boot's log from @pos (or its oldest, if later) */
static s64 read_live(u64 pos, u64 *res)
{
	const struct hyp_log_area *a = log_area;
	unsigned int tries, i;
	u64 end, start, word;

	for (tries = 0; tries < HYP_LOG_READ_TRIES; tries++) {
		end = arch_load_acquire_u64(&a->head);
		start = end > HYP_LOG_LIVE ? end - HYP_LOG_LIVE : 0;
		/* Any @pos the host gives, into [start, end]: nothing wraps */
		pos = min(max(pos, start), end);
		word = 0;
		for (i = 0; i < 8 && i < end - pos; i++)
			word |= (u64)(u8)READ_ONCE(a->text[(pos + i) %
							   HYP_LOG_TEXT]) << (8 * i);
		/*
		 * The bytes before the head is read again (a dmb ishld on
		 * arm64, inline): if the writer is not yet at a position
		 * that overwrites them, they are the ones written there.
		 */
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (READ_ONCE(a->head) - pos <= HYP_LOG_LIVE) {
			res[0] = pos;
			res[1] = end;
			res[2] = word;
			return HYPTRACE_RET_SUCCESS;
		}
	}
	return HYPTRACE_RET_AGAIN;
}

/* HYPTRACE_CALL_HYP_LOG */
s64 hyp_log_call(u64 which, u64 pos, u64 *res)
{
	unsigned int i;
	u64 word = 0;

	switch (which) {
	case HYPTRACE_HYP_LOG_THIS_BOOT:
		if (!log_area)
			return HYPTRACE_RET_NOT_LOADED;
		return read_live(pos, res);
	case HYPTRACE_HYP_LOG_LAST_BOOT:
		if (!prev_len)
			return HYPTRACE_RET_NOT_LOADED;
		pos = min(pos, prev_len);
		for (i = 0; i < 8 && i < prev_len - pos; i++)
			word |= (u64)(u8)prev_text[pos + i] << (8 * i);
		res[0] = pos;
		res[1] = prev_len;
		res[2] = word;
		return HYPTRACE_RET_SUCCESS;
	default:
		return HYPTRACE_RET_INVALID;
	}
}
