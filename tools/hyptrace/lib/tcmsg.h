/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace-cmd's message protocol, version 3, as `trace-cmd listen` speaks it
 * (trace-cmd's lib/trace-cmd/trace-msg.c): every message is a header of
 * three big-endian u32s (the whole message's size, the command, the size
 * of the command's fixed part), the fixed part, then a payload. A listener
 * refuses a message over 8192 bytes.
 *
 * Only the commands a recorder sending to a listener needs are named here.
 * Socket I/O never raises SIGPIPE: a peer that went away is an error.
 */
#ifndef HYPTRACE_TOOLS_TCMSG_H
#define HYPTRACE_TOOLS_TCMSG_H

#include <stddef.h>
#include <stdint.h>

#define TCM_HDR_LEN		12U
#define TCM_MAX_LEN		8192U
#define TCM_MAX_DATA		(TCM_MAX_LEN - TCM_HDR_LEN)

enum tcm_cmd {
	TCM_CLOSE	= 0,
	TCM_TINIT	= 1,	/* fixed: cpus, page size, nr of options */
	TCM_RINIT	= 2,	/* fixed: cpus; payload: a port per CPU */
	TCM_SEND_DATA	= 3,	/* payload: trace.dat metadata bytes */
	TCM_FIN_DATA	= 4,	/* the metadata is complete */
	TCM_NOT_SUPP	= 5,	/* the peer did not expect the last message */
};

/* A received message; payload points into buf */
struct tcm_msg {
	uint32_t cmd;
	uint32_t fixed_len;	/* as the sender said */
	const uint8_t *fixed;
	uint32_t len;		/* payload bytes */
	const uint8_t *payload;
	uint8_t buf[TCM_MAX_LEN];
};

/* The command's name for messages: "RINIT", or "command 42" */
const char *tcmsg_name(uint32_t cmd, char *buf, size_t len);

/* A be32 from @p, which need not be aligned */
uint32_t tcmsg_be32(const uint8_t *p);

/*
 * Send one message: @fixed_len bytes of fixed part (big-endian u32s the
 * caller made), then @len bytes of payload; at most TCM_MAX_LEN in all.
 */
int tcmsg_send(int fd, uint32_t cmd, const void *fixed, size_t fixed_len,
	     const void *payload, size_t len, char *err, size_t errlen);

/*
 * Receive one message, waiting at most @timeout_ms for each part (-1: for
 * ever). -1 with the reason when it is too big, too small, cut short or
 * late.
 */
int tcmsg_recv(int fd, struct tcm_msg *m, int timeout_ms, char *err,
	     size_t errlen);

/* Plain socket I/O, for the handshake before the messages. */
int tcmsg_write_all(int fd, const void *p, size_t len);
/*
 * Read @len bytes: returns how many arrived before the end of the stream
 * (so fewer than @len only at the end), or -1 with errno (ETIMEDOUT when
 * nothing came for @timeout_ms).
 */
ssize_t tcmsg_read_full(int fd, void *p, size_t len, int timeout_ms);

#endif /* HYPTRACE_TOOLS_TCMSG_H */
