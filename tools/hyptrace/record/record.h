/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `hyptrace record`'s own part: streaming a source (hyptrace/source.h) to
 * trace-cmd listen as it is recorded.
 */
#ifndef HYPTRACE_RECORD_H
#define HYPTRACE_RECORD_H

#include <stddef.h>

#include "hyptrace/source.h"

/*
 * record_net.c: the same source sent as it is recorded to a trace-cmd
 * listener (hyptrace/tcnet.h), and, with local_copy, kept in the temporary
 * files too for source_write(). record_net_open() after source_open(), with tracing
 * on; record_net_drain() instead of source_drain(); record_net_finish() once the
 * last pages are sent; record_net_close() always.
 */
int record_net_open(struct source *src, char *err, size_t errlen);
int record_net_drain(struct source *src, char *err, size_t errlen);
int record_net_check(struct source *src, char *err, size_t errlen);
int record_net_finish(struct source *src, char *err, size_t errlen);
void record_net_close(struct source *src);

#endif /* HYPTRACE_RECORD_H */
