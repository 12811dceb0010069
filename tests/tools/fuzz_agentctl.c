// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the bytes `hyptrace agent` takes on its control port
 * (agent-ctl-path, or the client's connection with -N), through the
 * order reader agent_ctl_orders() uses (tools/hyptrace/lib/vtproto.c
 * vtproto_next_order()), in pieces of varying size. Every line is one order;
 * what a bad one shows is printable and short; the buffer never holds
 * more than it can. Seeds: the orders a listener sends (make seeds).
 */
#include <stdlib.h>
#include <string.h>

#include "hyptrace/vtproto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vt_orders o = { .have = 0 };
	size_t at = 0, step = 1, i;
	enum vt_order ord;
	char line[40];

	while (at < size) {
		size_t n = size - at < step ? size - at : step;

		if (n > vtproto_orders_room(&o))
			n = vtproto_orders_room(&o);
		memcpy(o.buf + o.have, data + at, n);
		o.have += n;
		at += n;
		step = step < 512 ? step * 2 : 1;
		while ((ord = vtproto_next_order(&o, line, sizeof(line)))) {
			if (ord > VT_ORDER_BAD)
				abort();
			if (ord != VT_ORDER_BAD)
				continue;
			for (i = 0; line[i]; i++)
				if (line[i] < 0x20 || line[i] > 0x7e)
					abort();
			if (i >= sizeof(line))
				abort();
		}
		/* no whole line left, and room for more */
		if (memchr(o.buf, '\n', o.have) || !vtproto_orders_room(&o))
			abort();
	}
	return 0;
}
