// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <sys/socket.h>
#include <unistd.h>

#include "hyptrace/fdio.h"

int fdio_write_all(int fd, const void *p, size_t len, off_t off)
{
	const char *c = p;

	while (len) {
		ssize_t n;

		if (off == FDIO_SOCKET)
			n = send(fd, c, len, MSG_NOSIGNAL);
		else if (off == FDIO_HERE)
			n = write(fd, c, len);
		else
			n = pwrite(fd, c, len, off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (!n)
				errno = EIO;	/* no progress: not worth a retry */
			return -1;
		}
		c += n;
		len -= n;
		if (off >= 0)
			off += n;
	}
	return 0;
}
