/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A validating walker over one ring-buffer page as the kernel (and our
 * hypervisor) writes it: struct buffer_data_page, then compressed event
 * headers, decoded by the one decoder the hypervisor and the host module
 * use too (shared/rb_rec.h). The page may come from a file anyone can
 * edit, so every length is checked against the commit and the page size
 * before it is used: a corrupt page gives an error, never a read outside it.
 */
#ifndef HYPTRACE_TOOLS_PAGE_H
#define HYPTRACE_TOOLS_PAGE_H

#include <stddef.h>
#include <stdint.h>

#include "rb_rec.h"

/* commit bits the kernel's reader sets on a page it hands out */
#define PG_MISSED_EVENTS	(1ULL << 31)
#define PG_MISSED_STORED	(1ULL << 30)

/* lost count when only PG_MISSED_EVENTS is set (same as TD_LOST_UNKNOWN) */
#define PG_LOST_UNKNOWN		UINT64_MAX

struct pg_walk {
	struct rb_walk rb;	/* the records, and the running time */
	uint32_t commit;	/* bytes of data[] holding events */
	uint64_t page_ts;	/* the page header's time_stamp */
	uint64_t lost;		/* events lost before this page: 0, n, UNKNOWN */
};

struct pg_event {
	uint64_t ts;
	const uint8_t *data;	/* payload */
	uint32_t size;		/* payload bytes, as the header says */
	uint32_t offset;	/* of the event header, from the page start */
};

/*
 * Start walking @page of @page_size bytes. 0, or -1 with the reason in
 * @err when the header does not fit the page.
 */
int page_open(struct pg_walk *w, const void *page, size_t page_size,
	    char *err, size_t errlen);

/*
 * The next data event. 1 with *@ev filled, 0 at the end of the page, -1
 * with the reason in @err when a header or length is impossible.
 */
int page_next(struct pg_walk *w, struct pg_event *ev, char *err, size_t errlen);

#endif /* HYPTRACE_TOOLS_PAGE_H */
