// SPDX-License-Identifier: GPL-2.0
/*
 * What the fallback front end's two text readers, trace (fallback_trace.c)
 * and trace_pipe (fallback_pipe.c), share: opening and closing one on a
 * source's CPU or all of them, which loads the live buffer on first use
 * through its owner (struct fb_text_owner), and one event printed as
 * trace_remote prints it, so that both print alike.
 */
#include <linux/fs.h>
#include <linux/math64.h>
#include <linux/slab.h>
#include <linux/trace_seq.h>

#include "compat.h"
#include "hyptrace.h"
#include "fallback.h"
#include "fallback_text.h"
#include "source.h"

/* One event, as trace_remote prints it */
static void fb_print_event(struct trace_seq *s, unsigned int cpu, u64 ts,
			   const u8 *payload, u32 len)
{
	const struct hyptrace_event *def = NULL;
	unsigned long usecs;
	u64 secs = ts;
	u16 id = 0;

	do_div(secs, NSEC_PER_USEC);
	usecs = do_div(secs, USEC_PER_SEC);
	trace_seq_printf(s, "[%03d]\t%5llu.%06lu: ", cpu, secs, usecs);
	if (len >= sizeof(id)) {
		id = get_unaligned((u16 *)payload);
		def = hyptrace_find_event(id);
	}
	/* The printers read a whole payload: a short one is not printed */
	if (def && len >= def->size)
		def->print((void *)payload, s);
	else
		trace_seq_printf(s, "UNKNOWN id=%d\n", id);
}

void fb_print(struct trace_seq *s, const struct fb_event *ev)
{
	if (ev->lost)
		trace_seq_printf(s, "CPU:%d [LOST %llu EVENTS]\n", ev->cpu,
				 ev->lost);
	fb_print_event(s, ev->cpu, ev->ts, ev->payload, ev->len);
}

/* A reader opens: the owner loads the live buffer on first use */
int fb_iter_open(struct inode *inode, struct fb_iter **out)
{
	const struct hyptrace_src_cpu *sc = inode->i_private;
	const struct fb_text_owner *owner;
	struct fb_iter *it;
	int ret;

	it = kzalloc_obj(*it);
	if (!it)
		return -ENOMEM;
	it->src = sc->src;
	it->cpu = sc->cpu;
	owner = fb_text_of(it->src)->owner;
	ret = owner ? owner->get() : 0;
	if (!ret) {
		ret = it->src->ops->open(it->src, it->cpu, false);
		if (ret && owner)
			owner->put();
	}
	if (ret) {
		kfree(it);
		return ret;
	}
	trace_seq_init(&it->seq);
	*out = it;
	return 0;
}

void fb_iter_close(struct fb_iter *it)
{
	const struct fb_text_owner *owner = fb_text_of(it->src)->owner;

	it->src->ops->release(it->src, it->cpu, false);
	if (owner)
		owner->put();
	kfree(it->pos);
	kfree(it);
}
