// SPDX-License-Identifier: GPL-2.0
/*
 * hyp/core/hyp_log.c on the host, its region in a buffer of the test's:
 *  - HYP_LOG reads what was written, 8 bytes a call, from any position the
 *    host gives (past the end: the end and no bytes);
 *  - once the ring wraps, a read from before its oldest byte starts at the
 *    oldest, and every byte read is the one written at its position;
 *  - with a writer thread filling the ring many times over while a reader
 *    reads, every byte a successful read returns is still the one written
 *    at its position (the reader notices when the writer lapped it);
 *  - the next "boot" (hyp_log_init() again on the same memory) keeps a log
 *    that ended in hyp_log_panic(), whole and read-only, in the memory its
 *    caller gave for the size hyp_log_last_boot_size() said, and only such
 *    a log; a damaged one is not kept, nor one its caller found no memory
 *    for.
 */
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cache.h"
#include "hyp_layout.h"
#include "hyp_log.h"
#include "../../shared/hyptrace_abi.h"
#include "check.h"

#define TEXT		(HYP_LOG_SIZE - 64)	/* the ring's bytes */
#define LIVE		(TEXT - 1)		/* of them, readable while written */
#define AREA_OFFSET	(HYP_REGION_SIZE - HYP_PERSIST_SIZE - HYP_LOG_SIZE)

struct hyp_layout hyp_layout;
static u64 cleaned_start, cleaned_end;

void dcache_clean_range(u64 start, u64 end)
{
	cleaned_start = start;
	cleaned_end = end;
}

/* A boot as setup.c makes it: room for the last boot's log, then the log */
static void boot(void)
{
	u64 kept = hyp_log_last_boot_size();

	hyp_log_init(kept ? aligned_alloc(SZ_4K, ALIGN_UP(kept, SZ_4K)) : NULL);
}

/* One test point: @what */
static void expect(int ok, const char *what)
{
	ck_begin();
	EXPECT(ok, "%s", what);
	ck_end("%s", what);
}

/* The byte written at @pos: differs from those a lap or two before it */
static char pattern(u64 pos)
{
	return (char)(pos ^ (pos >> 8) ^ (pos >> 16));
}

static void write_pattern(u64 from, u64 n)
{
	u64 i;

	for (i = 0; i < n; i++)
		hyp_log_putc(pattern(from + i));
}

static s64 call(u64 which, u64 pos, u64 *res)
{
	return hyp_log_call(which, pos, res);
}

/* Whether bytes [res[0], res[0] + n) in res[2] are pattern()'s */
static bool word_is_pattern(const u64 *res, u64 base)
{
	unsigned int i, n = (unsigned int)min(8, res[1] - res[0]);

	for (i = 0; i < n; i++)
		if ((char)(res[2] >> (8 * i)) != pattern(res[0] - base + i))
			return false;
	return true;
}

/*
 * The writer starts once the reader reads, and writes 40 laps of the ring
 * at least and until the reader has read this often and been lapped this
 * often: states, not time, so that the two overlap however the threads
 * are scheduled (a reader preempted mid-read is lapped when it resumes).
 */
#define READS_WANTED	200000
#define LAPS_WANTED	1000
#define WRITE_AT_LEAST	(40 * TEXT)
#define TEST_TIMEOUT_S	60	/* a guard against a hang, not a wait */
static void hung(int sig)
{
	static const char msg[] =
		"Bail out! the reader and writer did not get through in time\n";

	(void)sig;
	if (write(1, msg, sizeof(msg) - 1) < 0)
		_exit(2);
	_exit(1);
}

static volatile bool writer_done;
static volatile u64 reads, laps;
static u64 written;

static void *writer(void *arg)
{
	(void)arg;
	while (!reads)
		;
	for (written = 0; written < WRITE_AT_LEAST || reads < READS_WANTED ||
	     laps < LAPS_WANTED; written++)
		hyp_log_putc(pattern(written));
	writer_done = true;
	return NULL;
}

int main(void)
{
	u8 *region = aligned_alloc(HYP_REGION_SIZE, HYP_REGION_SIZE);
	u64 res[3], end, pos;
	bool all_ok = true;
	pthread_t t;

	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGALRM, hung);
	alarm(TEST_TIMEOUT_S);
	memset(region, 0, HYP_REGION_SIZE);
	hyp_layout.hyp_base = (u64)region;

	/* A cold boot */
	expect(!hyp_log_last_boot_size(), "a cold boot has no last boot's log to keep");
	boot();
	expect(!hyp_log_last_boot_kept() &&
	       call(HYPTRACE_HYP_LOG_LAST_BOOT, 0, res) == HYPTRACE_RET_NOT_LOADED,
	       "a cold boot has no last boot's log");
	write_pattern(0, 5);
	expect(call(HYPTRACE_HYP_LOG_THIS_BOOT, 0, res) == 0 && res[0] == 0 &&
	       res[1] == 5 && word_is_pattern(res, 0) && !(res[2] >> 40),
	       "5 bytes read back at 0, nothing after them");
	expect(call(HYPTRACE_HYP_LOG_THIS_BOOT, ~0ULL, res) == 0 &&
	       res[0] == 5 && res[1] == 5 && !res[2],
	       "past the end: the end, no bytes");
	expect(call(2, 0, res) == HYPTRACE_RET_INVALID, "log 2 is INVALID");

	/* Wrapped: the oldest byte read is LIVE before the end */
	write_pattern(5, 3 * TEXT);
	end = 3 * TEXT + 5;
	expect(call(HYPTRACE_HYP_LOG_THIS_BOOT, 0, res) == 0 &&
	       res[0] == end - LIVE && res[1] == end,
	       "a read from before the oldest byte starts at the oldest");
	for (pos = end - LIVE; pos < end; pos += 8)
		if (call(HYPTRACE_HYP_LOG_THIS_BOOT, pos, res) ||
		    res[0] != pos || !word_is_pattern(res, 0))
			all_ok = false;
	expect(all_ok, "every byte of a wrapped ring is the one written there");

	/* A writer lapping a reader */
	memset(region + AREA_OFFSET, 0, HYP_LOG_SIZE);
	boot();
	pthread_create(&t, NULL, writer, NULL);
	all_ok = true;
	/* Every other read at the oldest byte, the one the writer takes next */
	for (pos = 0; !writer_done; pos = reads & 1 ? 0 : res[0] + 8) {
		s64 ret = call(HYPTRACE_HYP_LOG_THIS_BOOT, pos, res);

		if (ret == HYPTRACE_RET_AGAIN) {
			laps++;
			res[0] = pos;
			continue;
		}
		reads++;
		if (ret || !word_is_pattern(res, 0))
			all_ok = false;
		if (res[0] > pos)
			laps++;
	}
	pthread_join(t, NULL);
	printf("# %llu reads while writing %llu bytes, lapped %llu times\n",
	       (unsigned long long)reads, (unsigned long long)written,
	       (unsigned long long)laps);
	expect(all_ok, "a reader lapped by the writer never returns a byte from another position");

	/* A panic, then the next boot on the same memory */
	end = written;
	hyp_log_panic();
	expect(cleaned_start == (u64)region + AREA_OFFSET &&
	       cleaned_end == cleaned_start + HYP_LOG_SIZE,
	       "a panic cleans the whole log to the point of coherency");
	expect(hyp_log_last_boot_size() == TEXT,
	       "the next boot needs the last TEXT bytes kept");
	boot();
	expect(hyp_log_last_boot_kept(), "the next boot keeps a panicked log");
	all_ok = true;
	for (pos = 0; pos < TEXT; pos += 8)
		if (call(HYPTRACE_HYP_LOG_LAST_BOOT, pos, res) || res[0] != pos ||
		    res[1] != TEXT || !word_is_pattern(res, -(end - TEXT)))
			all_ok = false;
	expect(all_ok, "its last TEXT bytes, oldest first, from position 0");
	/* A panicked log again, with no memory to keep it in */
	write_pattern(0, 100);
	hyp_log_panic();
	expect(hyp_log_last_boot_size() == 100,
	       "a panicked log of 100 bytes needs 100 kept");
	hyp_log_init(NULL);
	expect(!hyp_log_last_boot_kept() &&
	       call(HYPTRACE_HYP_LOG_LAST_BOOT, 0, res) == HYPTRACE_RET_NOT_LOADED,
	       "with nowhere to keep it, a panicked log is not kept");

	/* A boot that did not panic leaves nothing for the next */
	write_pattern(0, 100);
	boot();
	expect(!hyp_log_last_boot_kept(), "a log that did not end in a panic is not kept");

	/* Damaged: a panicked log whose version is wrong */
	hyp_log_panic();
	region[AREA_OFFSET + 8] ^= 0xff;
	boot();
	expect(!hyp_log_last_boot_kept(), "a damaged log is not kept");

	return ck_exit();
}
