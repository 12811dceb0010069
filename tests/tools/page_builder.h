/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A builder for ring-buffer pages written by hand, record by record, for
 * the tool's tests that need exact bytes.
 */
#ifndef HYPTRACE_TESTS_TOOLS_PAGE_BUILDER_H
#define HYPTRACE_TESTS_TOOLS_PAGE_BUILDER_H

#include <stdint.h>
#include <string.h>

struct pb {
	uint8_t page[4096];
	uint32_t pos;		/* in data[] */
};

static inline void pb_init(struct pb *b, uint64_t ts)
{
	memset(b->page, 0xa5, sizeof(b->page));
	memcpy(b->page, &ts, 8);
	b->pos = 0;
}

static inline void pb_word(struct pb *b, uint32_t w)
{
	memcpy(b->page + 16 + b->pos, &w, 4);
	b->pos += 4;
}

static inline uint32_t pb_hdr(uint32_t type, uint32_t delta)
{
	return type | delta << 5;
}

/* A data record: type_len 0 with array[0] = 4 + len, or 1..28 if @small */
static inline void pb_data(struct pb *b, uint32_t delta, const void *p,
			   uint32_t len, int small)
{
	uint32_t padded = (len + 3) & ~3U;

	if (small) {
		pb_word(b, pb_hdr(padded / 4, delta));
	} else {
		pb_word(b, pb_hdr(0, delta));
		pb_word(b, padded + 4);
	}
	memset(b->page + 16 + b->pos, 0, padded);
	memcpy(b->page + 16 + b->pos, p, len);
	b->pos += padded;
}

static inline void pb_extend(struct pb *b, uint64_t delta)
{
	pb_word(b, pb_hdr(30, delta & ((1U << 27) - 1)));
	pb_word(b, delta >> 27);
}

/* Set commit (with @flags), and store @lost after the data if asked */
static inline void pb_commit(struct pb *b, uint64_t flags, uint64_t lost)
{
	uint64_t commit = b->pos | flags;

	memcpy(b->page + 8, &commit, 8);
	if ((flags & (1ULL << 30)) && b->pos + 8 <= 4080)
		memcpy(b->page + 16 + b->pos, &lost, 8);
}

#endif /* HYPTRACE_TESTS_TOOLS_PAGE_BUILDER_H */
