/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small protobuf wire-format encoder, enough to write Perfetto traces
 * (`hyptrace perfetto`) without a protobuf library: varints, fixed-width
 * numbers, length-delimited bytes and nested messages, appended to a
 * growing buffer. Nothing here knows any .proto: callers give the field
 * numbers.
 *
 * Wire format (https://protobuf.dev/programming-guides/encoding/): a field
 * is a varint tag (field number << 3 | wire type) then its value. Nested
 * messages are length-delimited; pbenc_begin() reserves room for the length
 * and pbenc_end() writes it in its shortest form once the content is known.
 *
 * Errors are sticky: when memory runs out the buffer is marked failed,
 * every later call does nothing, and pbenc_failed() says so. Check it once,
 * after the last call.
 */
#ifndef HYPTRACE_TOOLS_PBENC_H
#define HYPTRACE_TOOLS_PBENC_H

#include <stddef.h>
#include <stdint.h>

/* Wire types */
enum pb_wire_type {
	PB_WIRE_VARINT = 0,
	PB_WIRE_FIXED64 = 1,
	PB_WIRE_LEN = 2,
	PB_WIRE_FIXED32 = 5,
};

/* The longest varint: 64 bits, 7 per byte */
#define PB_VARINT_MAX		10

struct pb_buf {
	uint8_t *data;
	size_t len;
	size_t cap;
	int failed;		/* out of memory: the content is incomplete */
};

#define PB_BUF_INIT		{ NULL, 0, 0, 0 }

void pbenc_free(struct pb_buf *b);

/* Empty the buffer, keeping its memory (and its failed mark). */
static inline void pbenc_clear(struct pb_buf *b)
{
	b->len = 0;
}

static inline int pbenc_failed(const struct pb_buf *b)
{
	return b->failed;
}

/* Encode @v as a varint into @out (PB_VARINT_MAX bytes); returns the length. */
size_t pbenc_encode_varint(uint8_t *out, uint64_t v);

/* Bytes appended as they are: already encoded fields. */
void pbenc_raw(struct pb_buf *b, const void *p, size_t n);

/* uint32, uint64, bool and enum fields */
void pbenc_uint(struct pb_buf *b, uint32_t field, uint64_t v);
/* int32 and int64 fields: negative values take ten bytes, as in protobuf */
void pbenc_int(struct pb_buf *b, uint32_t field, int64_t v);
/* fixed64, sfixed64 (cast) and double (its bits) fields */
void pbenc_fixed64(struct pb_buf *b, uint32_t field, uint64_t v);
/* fixed32, sfixed32 (cast) and float (its bits) fields */
void pbenc_fixed32(struct pb_buf *b, uint32_t field, uint32_t v);
/* bytes and string fields, and messages encoded elsewhere */
void pbenc_bytes(struct pb_buf *b, uint32_t field, const void *p, size_t n);
void pbenc_string(struct pb_buf *b, uint32_t field, const char *s);

/*
 * A nested message: pbenc_begin() writes the tag and returns a mark to give to
 * pbenc_end() after the message's fields. Nest them like brackets.
 */
size_t pbenc_begin(struct pb_buf *b, uint32_t field);
void pbenc_end(struct pb_buf *b, size_t mark);

#endif /* HYPTRACE_TOOLS_PBENC_H */
