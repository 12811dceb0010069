/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The door of `hyptrace agent -N`: the connections on its listening
 * socket, each through the handshake of vtauth.h, several at once. One
 * client that connects and then says nothing (or says it slowly) holds
 * only its own slot until its deadline, never the door: a client with
 * the key that comes after it is let in as soon as it has answered.
 * When every slot is taken, the oldest handshake makes room for a new
 * connection; a real client answers at once, so the oldest is the one
 * least likely to be one.
 */
#ifndef HYPTRACE_TOOLS_VTGATE_H
#define HYPTRACE_TOOLS_VTGATE_H

#include "hyptrace/vtauth.h"

#define VTG_SLOTS	8

struct vt_gate {
	int listen_fd;
	const struct vta_key *key;	/* NULL: --no-key */
	int timeout_ms;			/* each handshake's */
	unsigned int n;			/* handshakes under way */
	struct vta_pending slot[VTG_SLOTS];
	/* A connection refused, and why: called before it is closed */
	void (*refused)(void *ctx, enum vta_result r, const char *why);
	void *ctx;
};

void vtgate_init(struct vt_gate *g, int listen_fd, const struct vta_key *key,
	      int timeout_ms,
	      void (*refused)(void *ctx, enum vta_result r, const char *why),
	      void *ctx);

/*
 * Wait up to @wait_ms for a connection that has passed the handshake: its
 * fd (non-blocking), or -1 when none has yet. New connections are taken
 * and every handshake moves on meanwhile.
 */
int vtgate_next(struct vt_gate *g, int wait_ms);

/* End every handshake under way, telling each client @why */
void vtgate_close_all(struct vt_gate *g, const char *why);

#endif /* HYPTRACE_TOOLS_VTGATE_H */
