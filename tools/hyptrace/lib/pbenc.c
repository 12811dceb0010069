// SPDX-License-Identifier: GPL-2.0
/*
 * Protobuf wire-format encoder (see pbenc.h): the few encodings a Perfetto
 * trace needs, into a buffer that grows as it goes. Written here rather
 * than taken from a library so that hyptrace keeps building from this tree
 * alone, for the host and statically for the board.
 */
#include <stdlib.h>
#include <string.h>

#include "hyptrace/pbenc.h"

/*
 * Room pbenc_begin() keeps for a nested message's length: five varint bytes
 * hold any length below 2^35, and we refuse anything of 4 GiB or more.
 */
#define PB_LEN_RESERVE		5
#define PB_LEN_MAX		UINT32_MAX

void pbenc_free(struct pb_buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = 0;
	b->cap = 0;
}

/* Make room for @n more bytes; 0, or -1 with the buffer marked failed. */
static int pb_reserve(struct pb_buf *b, size_t n)
{
	size_t cap;
	uint8_t *p;

	if (b->failed)
		return -1;
	if (b->cap - b->len >= n)
		return 0;
	cap = b->cap ? b->cap : 256;
	while (cap - b->len < n) {
		if (cap > SIZE_MAX / 2)
			goto fail;
		cap *= 2;
	}
	p = realloc(b->data, cap);
	if (!p)
		goto fail;
	b->data = p;
	b->cap = cap;
	return 0;
fail:
	b->failed = 1;
	return -1;
}

size_t pbenc_encode_varint(uint8_t *out, uint64_t v)
{
	size_t n = 0;

	while (v >= 0x80) {
		out[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	out[n++] = (uint8_t)v;
	return n;
}

static void pb_varint(struct pb_buf *b, uint64_t v)
{
	if (pb_reserve(b, PB_VARINT_MAX))
		return;
	b->len += pbenc_encode_varint(b->data + b->len, v);
}

static void pb_tag(struct pb_buf *b, uint32_t field, enum pb_wire_type wt)
{
	pb_varint(b, (uint64_t)field << 3 | wt);
}

void pbenc_raw(struct pb_buf *b, const void *p, size_t n)
{
	if (!n || pb_reserve(b, n))
		return;
	memcpy(b->data + b->len, p, n);
	b->len += n;
}

void pbenc_uint(struct pb_buf *b, uint32_t field, uint64_t v)
{
	pb_tag(b, field, PB_WIRE_VARINT);
	pb_varint(b, v);
}

void pbenc_int(struct pb_buf *b, uint32_t field, int64_t v)
{
	pb_tag(b, field, PB_WIRE_VARINT);
	pb_varint(b, (uint64_t)v);
}

/* Little-endian, whatever the host's order */
static void pb_le(struct pb_buf *b, uint64_t v, unsigned int bytes)
{
	unsigned int i;

	if (pb_reserve(b, bytes))
		return;
	for (i = 0; i < bytes; i++)
		b->data[b->len++] = (uint8_t)(v >> (8 * i));
}

void pbenc_fixed64(struct pb_buf *b, uint32_t field, uint64_t v)
{
	pb_tag(b, field, PB_WIRE_FIXED64);
	pb_le(b, v, 8);
}

void pbenc_fixed32(struct pb_buf *b, uint32_t field, uint32_t v)
{
	pb_tag(b, field, PB_WIRE_FIXED32);
	pb_le(b, v, 4);
}

void pbenc_bytes(struct pb_buf *b, uint32_t field, const void *p, size_t n)
{
	if (n > PB_LEN_MAX) {
		b->failed = 1;
		return;
	}
	pb_tag(b, field, PB_WIRE_LEN);
	pb_varint(b, n);
	pbenc_raw(b, p, n);
}

void pbenc_string(struct pb_buf *b, uint32_t field, const char *s)
{
	pbenc_bytes(b, field, s, strlen(s));
}

size_t pbenc_begin(struct pb_buf *b, uint32_t field)
{
	pb_tag(b, field, PB_WIRE_LEN);
	if (pb_reserve(b, PB_LEN_RESERVE))
		return 0;
	b->len += PB_LEN_RESERVE;
	return b->len - PB_LEN_RESERVE;
}

void pbenc_end(struct pb_buf *b, size_t mark)
{
	uint8_t len[PB_VARINT_MAX];
	size_t body, n;

	if (b->failed)
		return;
	body = b->len - mark - PB_LEN_RESERVE;
	if (body > PB_LEN_MAX) {
		b->failed = 1;
		return;
	}
	/* The shortest length, then the body slid back against it */
	n = pbenc_encode_varint(len, body);
	memmove(b->data + mark + n, b->data + mark + PB_LEN_RESERVE, body);
	memcpy(b->data + mark, len, n);
	b->len -= PB_LEN_RESERVE - n;
}
