// SPDX-License-Identifier: GPL-2.0
/*
 * hyptrace agent over virtio-serial (qemu-run.sh --virtio-trace): the
 * orders come on the agent-ctl-path port and the answers go back there;
 * each CPU's thread writes its pages straight into its trace-path-cpuN
 * port. One host, for as long as the agent runs: a failure on the port
 * ends the agent.
 */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent.h"
#include "hyptrace/cmdline.h"
#include "hyptrace/errmsg.h"
#include "hyptrace/tracefs.h"
#include "hyptrace/vtproto.h"

#define SUB		"agent"
#define SYS_PORTS	"/sys/class/virtio-ports"
#define SEND_MS		5000

/* The control port, open from open() to close() */
struct agent_virtio {
	int ctl;
};

/*
 * The device of port @name: @dir/@name, or without --ports
 * /dev/virtio-ports/@name (udev's link), or else /dev/vportNpM whose
 * sysfs name is @name (no udev, as in a busybox initramfs). -1 if none.
 */
static int open_port(const char *dir, const char *name, int flags)
{
	char path[PATH_MAX], file[PATH_MAX];
	struct tfs_text t;
	struct dirent *d;
	int fd = -1;
	DIR *dp;

	snprintf(path, sizeof(path), "%s/%s",
		 dir ? dir : "/dev/virtio-ports", name);
	fd = open(path, flags | O_CLOEXEC);
	if (fd >= 0 || dir)
		return fd;
	dp = opendir(SYS_PORTS);
	while (dp && fd < 0 && (d = readdir(dp))) {
		char err[256];

		if (d->d_name[0] == '.')
			continue;
		snprintf(file, sizeof(file), "%s/name", d->d_name);
		if (tracefs_read(SYS_PORTS, file, &t, err, sizeof(err)))
			continue;
		if (t.len && t.text[t.len - 1] == '\n')
			t.text[--t.len] = '\0';
		if (!strcmp(t.text, name)) {
			snprintf(path, sizeof(path), "/dev/%s", d->d_name);
			fd = open(path, flags | O_CLOEXEC);
		}
		free(t.text);
	}
	if (dp)
		closedir(dp);
	return fd;
}

static int virtio_open(struct agent *a)
{
	struct agent_virtio *v = calloc(1, sizeof(*v));

	if (!v) {
		cmdline_err(SUB, "out of memory");
		return -1;
	}
	a->tp_state = v;
	v->ctl = open_port(a->where, VT_CTL_PORT, O_RDWR | O_NONBLOCK);
	if (v->ctl < 0) {
		cmdline_err(SUB, "no virtio-serial port %s%s%s (qemu-run.sh --virtio-trace DIR adds it)",
			    VT_CTL_PORT, a->where ? " in " : "",
			    a->where ? a->where : "");
		return -1;
	}
	return 0;
}

static int virtio_open_cpu(struct agent *a, unsigned int cpu, char *err,
			   size_t errlen)
{
	char name[64];

	snprintf(name, sizeof(name), VT_CPU_PORT_FMT, cpu);
	a->cpu[cpu].port_fd = open_port(a->where, name, O_WRONLY | O_NONBLOCK);
	if (a->cpu[cpu].port_fd < 0)
		return errmsg(err, errlen, "CPU %u: no virtio-serial port %s%s%s (qemu-run.sh --virtio-trace DIR adds them)",
			      cpu, name, a->where ? " in " : "",
			      a->where ? a->where : "");
	return 0;
}

static int virtio_serve(struct agent *a, bool start_now)
{
	struct agent_virtio *v = a->tp_state;

	printf("hyptrace agent: ready: %u CPUs, ports " VT_CPU_PORT_FMT "..%u and %s; waiting for the host's 1\n",
	       a->nr_cpus, 0, a->nr_cpus - 1, VT_CTL_PORT);
	return agent_ctl_orders(a, v->ctl, start_now) < 0 ? -1 : 0;
}

/* Only the main thread sends on the control port: nothing to order */
static int virtio_send(struct agent *a, int ctl, const char *name,
		       const void *p, size_t len, char *err, size_t errlen)
{
	(void)a;
	return vtproto_send(ctl, name, p, len, SEND_MS, err, errlen);
}

static void virtio_close(struct agent *a)
{
	struct agent_virtio *v = a->tp_state;

	if (!v)
		return;
	if (v->ctl >= 0)
		close(v->ctl);
	free(v);
	a->tp_state = NULL;
}

const struct agent_transport agent_virtio_transport = {
	.ctl_name = VT_CTL_PORT,
	.per_client = false,
	.open = virtio_open,
	.open_cpu = virtio_open_cpu,
	.serve = virtio_serve,
	.send = virtio_send,
	.close = virtio_close,
};
