/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The virtio-trace model over TCP (`hyptrace agent -N` and `hyptrace
 * listen -N`): the sockets. One connection carries everything: the
 * orders one way, the control messages and the pages (as "page:N"
 * messages, hyptrace/vtproto.h) the other way.
 */
#ifndef HYPTRACE_TOOLS_VTNET_H
#define HYPTRACE_TOOLS_VTNET_H

#include <stddef.h>

/*
 * ADDR:PORT or [ADDR]:PORT, both required (no wildcard unless it is
 * written, 0.0.0.0:PORT); the listening socket, non-blocking, or -1
 * with the reason.
 */
int vtnet_listen(const char *where, char *err, size_t errlen);

/* A client of HOST:PORT within @timeout_ms, non-blocking; or -1 */
int vtnet_connect(const char *where, int timeout_ms, char *err, size_t errlen);

/* Split @where; 0, or -1 with the reason (exported for the tests) */
int vtnet_split(const char *where, char *host, size_t hlen, char *port,
	      size_t plen, char *err, size_t errlen);

#endif /* HYPTRACE_TOOLS_VTNET_H */
