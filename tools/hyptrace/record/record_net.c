// SPDX-License-Identifier: GPL-2.0
/*
 * hyptrace record -N HOST:PORT: each CPU's pages go to `trace-cmd listen`
 * as they are read (hyptrace/tcnet.h does the protocol), and to the temporary
 * files as well when a local copy is kept. The listener needs the
 * metadata first, so it is what the tracing directory says when
 * recording starts: no CPUSTAT options (the stats are not known yet), and
 * for the host kernel the saved_cmdlines of that moment, as `trace-cmd
 * record -N` has it too.
 *
 * Pages are read() rather than spliced: each is counted on its way (the
 * summary has no file to count from) and may go to two places.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hyptrace/errmsg.h"
#include "record.h"
#include "hyptrace/tcnet.h"
#include "hyptrace/fdio.h"

int record_net_open(struct source *src, char *err, size_t errlen)
{
	struct source_meta *m = malloc(sizeof(*m));
	char *meta = NULL;
	size_t len;
	int ret = -1;

	src->page = malloc(src->page_size);
	if (!m || !src->page) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	if (source_describe(src, m, false, err, errlen))
		goto out;
	if (tracedat_meta(&m->out, &meta, &len, err, errlen))
		goto out_meta;
	src->net = tcnet_open(src->net_to, src->nr_cpus, src->page_size, err,
			    errlen);
	if (src->net && !tcnet_send_meta(src->net, meta, len, err, errlen) &&
	    !tcnet_connect_cpus(src->net, err, errlen))
		ret = 0;
	free(meta);
out_meta:
	source_undescribe(m);
out:
	free(m);
	return ret;
}


static int send_page(struct source *src, unsigned int cpu, char *err,
		     size_t errlen)
{
	struct source_cpu *c = &src->cpu[cpu];
	char why[128];

	if (source_count_page(src->page, src->page_size, &c->sent, why,
			   sizeof(why)))
		return errmsg(err, errlen, "%s CPU %u page %llu: %s",
			      src->what, cpu, (unsigned long long)c->pages,
			      why);
	if (tcnet_send_cpu(src->net, cpu, src->page, src->page_size, err,
			 errlen))
		return -1;
	if (c->tmp_fd >= 0 &&
	    fdio_write_all(c->tmp_fd, src->page, src->page_size, FDIO_HERE))
		return errmsg(err, errlen, "writing pages: %s",
			      strerror(errno ? errno : ENOSPC));
	c->pages++;
	return 0;
}

/* Every page @cpu has now; a page arrives whole, maybe in pieces. */
static int drain_cpu(struct source *src, unsigned int cpu, char *err,
		     size_t errlen)
{
	struct source_cpu *c = &src->cpu[cpu];
	size_t have = 0;

	for (;;) {
		ssize_t n = read(c->raw_fd, src->page + have,
				 src->page_size - have);

		if (n < 0 && errno == EAGAIN && !have)
			return 0;
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return errmsg(err, errlen, "reading %s's pages: %s",
				      src->what,
				      n ? strerror(errno) : "end of file");
		have += n;
		if (have < src->page_size)
			continue;
		if (send_page(src, cpu, err, errlen))
			return -1;
		have = 0;
	}
}

int record_net_drain(struct source *src, char *err, size_t errlen)
{
	unsigned int i;

	for (i = 0; i < src->nr_cpus; i++) {
		if (src->cpu[i].on && drain_cpu(src, i, err, errlen))
			return -1;
	}
	return 0;
}

int record_net_check(struct source *src, char *err, size_t errlen)
{
	return tcnet_check(src->net, err, errlen);
}

int record_net_finish(struct source *src, char *err, size_t errlen)
{
	return tcnet_finish(src->net, err, errlen);
}

void record_net_close(struct source *src)
{
	tcnet_free(src->net);
	src->net = NULL;
	free(src->page);
	src->page = NULL;
}
