// SPDX-License-Identifier: GPL-2.0
/*
 * hyptrace listen: what arrives from the agent, whatever carried it.
 * Pages go, checked, into OUTPUT.cpuN, and no further than --max-size
 * (control messages are cut out of the stream by listen_meta.c, which
 * hands page:N messages to the transport first). No socket here: the
 * fuzzer (tests/tools/fuzz_listen.c) feeds these the bytes an agent could
 * send.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hyptrace/errmsg.h"
#include "hyptrace/fdio.h"
#include "listen.h"

int listen_store_open_tmp(struct lst *l, unsigned int cpu, char *err, size_t errlen)
{
	struct lst_cpu *c = &l->cpu[cpu];
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s.cpu%u", l->output, cpu);
	/* never through a link, never into another run's file */
	c->tmp_fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW |
			 O_CLOEXEC, 0644);
	if (c->tmp_fd < 0)
		return errmsg(err, errlen, "cannot create %s: %s%s", path,
			      strerror(errno), errno == EEXIST ?
			      " (left by a listener that did not finish? remove it)" :
			      "");
	if (cpu >= l->nr_cpus)
		l->nr_cpus = cpu + 1;
	return 0;
}

int listen_store_page(struct lst *l, unsigned int i, const void *page,
		   char *err, size_t errlen)
{
	struct lst_cpu *c = &l->cpu[i];
	char why[128];

	if (l->max_size && l->stored + l->page_size > l->max_size) {
		l->full = true;
		return errmsg(err, errlen, "%s: the pages reached --max-size %llu bytes in round %u: stopping; the file keeps the pages before it",
			      l->output, (unsigned long long)l->max_size,
			      l->round);
	}
	if (source_count_page(page, l->page_size, &c->got, why, sizeof(why)))
		return errmsg(err, errlen, "CPU %u's stream, page %llu: %s",
			      i, (unsigned long long)c->got.pages, why);
	if (fdio_write_all(c->tmp_fd, page, l->page_size, FDIO_HERE))
		return errmsg(err, errlen, "writing %s.cpu%u: %s",
			      l->output, i, strerror(errno));
	l->stored += l->page_size;
	return 0;
}

void listen_store_close(struct lst *l)
{
	char path[PATH_MAX];
	unsigned int i;

	for (i = 0; i < l->nr_cpus; i++) {
		struct lst_cpu *c = &l->cpu[i];

		if (c->fd >= 0)
			close(c->fd);
		if (c->tmp_fd >= 0) {
			close(c->tmp_fd);
			snprintf(path, sizeof(path), "%s.cpu%u", l->output, i);
			unlink(path);
		}
		free(c->page);
		free(c->cpustat);
	}
	if (l->ctl >= 0)
		close(l->ctl);
	vtproto_reader_free(&l->rd);
	if (l->tp && l->tp->close)
		l->tp->close(l);
}
