// SPDX-License-Identifier: GPL-2.0
/*
 * hyptrace listen -N HOST:PORT: the workstation's end of the virtio-trace
 * model over TCP (hyptrace/vtproto.h). One connection to `hyptrace agent -N`:
 * the orders go on it as on agent-ctl-path, and the control messages and
 * the pages ("page:N") come back on it; each page goes to its CPU's
 * temporary file as if it had come on trace-path-cpuN (listen.c). The
 * connection opens with the key's challenge-response (hyptrace/vtauth.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "hyptrace/errmsg.h"
#include "hyptrace/cmdline.h"
#include "listen.h"
#include "hyptrace/vtnet.h"

#define SUB		"listen"
#define CONNECT_MS	5000

/* --key FILE into l->key; 0, or -1 (said) */
static int load_key(struct lst *l, const char *path)
{
	char err[512];

	l->key = malloc(sizeof(*l->key));
	if (!l->key) {
		cmdline_err(SUB, "out of memory");
		return -1;
	}
	if (vtauth_load_key(path, l->key, err, sizeof(err))) {
		cmdline_err(SUB, "%s", err);
		return -1;
	}
	return 0;
}

static void net_close(struct lst *l)
{
	if (l->key)
		sodium_memzero(l->key, sizeof(*l->key));
	free(l->key);
	l->key = NULL;
}

/* Connect to the agent and answer its challenge; 0, or -1 (said) */
static int net_open(struct lst *l)
{
	char err[512];

	if (l->key_file && load_key(l, l->key_file))
		return -1;
	l->ctl = vtnet_connect(l->dir, CONNECT_MS, err, sizeof(err));
	if (l->ctl < 0) {
		cmdline_err(SUB, "%s", err);
		return -1;
	}
	/*
	 * The key's challenge before anything else (hyptrace/vtauth.h); what
	 * its reads took of the messages behind it is taken now, as the
	 * agent may send nothing more to wake the poll up
	 */
	if (vtauth_answer(l->ctl, &l->rd, l->key, CONNECT_MS, err, sizeof(err))) {
		cmdline_err(SUB, "%s: %s", l->dir, err);
		return -1;
	}
	if (listen_meta_take_messages(l, err, sizeof(err))) {
		cmdline_err(SUB, "%s", err);
		return -1;
	}
	return 0;
}

/* 1 if @m was a page (stored), 0 if another message, -1 */
static int net_page(struct lst *l, const struct vt_msg *m, char *err,
		    size_t errlen)
{
	unsigned int cpu;
	int r;

	if (strncmp(m->name, "page:", 5))
		return 0;
	if (!l->have_meta)
		return errmsg(err, errlen, "a page before the agent's hello");
	r = vtproto_page_msg(m, l->agent_cpus, l->page_size, &cpu, err, errlen);
	if (r <= 0)
		return r ? -1 : 0;
	if (listen_store_page(l, cpu, m->payload, err, errlen))
		return -1;
	return 1;
}

static const char *net_ctl_name(const struct lst *l)
{
	return l->dir;
}

const struct listen_transport listen_net_transport = {
	.kind = "TCP",
	.peer = "the agent",
	.pages_on_ctl = true,
	.keepalive = true,
	.open = net_open,
	.ctl_name = net_ctl_name,
	.message = net_page,
	.close = net_close,
};
