// SPDX-License-Identifier: GPL-2.0
/*
 * hyptrace listen --virtio DIR: the UNIX sockets QEMU's chardevs listen
 * on in DIR (qemu-run.sh --virtio-trace DIR makes them): the orders and
 * the control messages on agent-ctl-path, each CPU's pages on its own
 * trace-path-cpuN, read by listen.c as they come.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "hyptrace/cmdline.h"
#include "listen.h"

#define SUB		"listen"

static int connect_unix(const char *dir, const char *name)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd;

	if ((size_t)snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/%s", dir,
			     name) >= sizeof(sa.sun_path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	fcntl(fd, F_SETFL, O_NONBLOCK);
	return fd;
}

static const char *virtio_ctl_name(const struct lst *l)
{
	static char name[PATH_MAX];

	snprintf(name, sizeof(name), "%s/%s", l->dir, VT_CTL_PORT);
	return name;
}

/* agent-ctl-path and every trace-path-cpuN in l->dir */
static int virtio_open(struct lst *l)
{
	char name[64], path[PATH_MAX], err[PATH_MAX + 64];
	struct stat st;
	unsigned int i;

	l->ctl = connect_unix(l->dir, VT_CTL_PORT);
	if (l->ctl < 0) {
		cmdline_err(SUB, "cannot connect to %s/%s: %s (is QEMU running with qemu-run.sh --virtio-trace %s?)",
		       l->dir, VT_CTL_PORT, strerror(errno), l->dir);
		return -1;
	}
	for (i = 0; i < SOURCE_MAX_CPUS; i++) {
		struct lst_cpu *c = &l->cpu[i];

		snprintf(name, sizeof(name), VT_CPU_PORT_FMT, i);
		snprintf(path, sizeof(path), "%s/%s", l->dir, name);
		if (stat(path, &st))
			continue;
		c->fd = connect_unix(l->dir, name);
		if (c->fd < 0) {
			cmdline_err(SUB, "cannot connect to %s: %s", path,
			       strerror(errno));
			return -1;
		}
		if (listen_store_open_tmp(l, i, err, sizeof(err))) {
			cmdline_err(SUB, "%s", err);
			return -1;
		}
	}
	if (!l->nr_cpus) {
		cmdline_err(SUB, "no trace-path-cpuN sockets in %s", l->dir);
		return -1;
	}
	return 0;
}

const struct listen_transport listen_virtio_transport = {
	.kind = "virtio-serial",
	.peer = "QEMU",
	.pages_on_ctl = false,
	.keepalive = false,
	.open = virtio_open,
	.ctl_name = virtio_ctl_name,
};
