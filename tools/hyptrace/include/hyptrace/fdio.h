/* SPDX-License-Identifier: GPL-2.0 */
/* Whole writes to files and sockets, for the trace.dat writer and streaming */
#ifndef HYPTRACE_TOOLS_FDIO_H
#define HYPTRACE_TOOLS_FDIO_H

#include <stddef.h>
#include <sys/types.h>

#define FDIO_HERE	((off_t)-1)	/* write(2) where the file stands */
#define FDIO_SOCKET	((off_t)-2)	/* send(2), no SIGPIPE for a peer gone */

/*
 * Write all @len bytes of @p to @fd, through short writes and EINTR: at
 * offset @off with pwrite(2), or as FDIO_HERE / FDIO_SOCKET say. 0, or -1
 * with errno set (EIO for a write that wrote nothing).
 */
int fdio_write_all(int fd, const void *p, size_t len, off_t off);

#endif /* HYPTRACE_TOOLS_FDIO_H */
