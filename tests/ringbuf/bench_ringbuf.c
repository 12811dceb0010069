// SPDX-License-Identifier: GPL-2.0
/*
 * Cost of one written event, for callgrind: each bench_* function writes
 * @n events through the public inline API (slow-path page crossings
 * included, amortised). The Makefile runs one variant per valgrind run with
 * --toggle-collect=bench_*, so the count covers exactly the loop; the
 * "loop" variant is the same loop with a volatile store instead of the
 * write, i.e. loop and clock (i * 16) overhead only.
 *
 * usage: bench_ringbuf {loop|write8|write16|reserve8|reserve16} [n]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testbuf.h"

#define noinline	__attribute__((__noinline__))

static u64 payload[2] = { 0x1111, 0x2222 };
/* a store the compiler must keep, standing for the write */
static volatile u64 sink;

noinline void bench_loop(struct rb_cpu *c, u64 n)
{
	u64 i;

	(void)c;
	for (i = 0; i < n; i++)
		sink = i * 16;
}

noinline void bench_write8(struct rb_cpu *c, u64 n)
{
	u64 i;

	for (i = 0; i < n; i++)
		rb_write(c, i * 16, payload, 8);
}

noinline void bench_write16(struct rb_cpu *c, u64 n)
{
	u64 i;

	for (i = 0; i < n; i++)
		rb_write(c, i * 16, payload, 16);
}

noinline void bench_reserve8(struct rb_cpu *c, u64 n)
{
	u64 i, *p;

	for (i = 0; i < n; i++) {
		p = rb_reserve(c, 8, i * 16);
		if (p) {
			p[0] = i;
			rb_commit(c);
		}
	}
}

noinline void bench_reserve16(struct rb_cpu *c, u64 n)
{
	u64 i, *p;

	for (i = 0; i < n; i++) {
		p = rb_reserve(c, 16, i * 16);
		if (p) {
			p[0] = i;
			p[1] = ~i;
			rb_commit(c);
		}
	}
}

int main(int argc, char **argv)
{
	u64 n = argc > 2 ? strtoull(argv[2], NULL, 0) : 1000000;
	const char *v = argc > 1 ? argv[1] : "write16";
	struct tbuf tb;

	if (tb_init(&tb, 0, 64, RB_MODE_OVERWRITE))
		return 2;
	rb_enable(&tb.cpu);
	if (!strcmp(v, "loop"))
		bench_loop(&tb.cpu, n);
	else if (!strcmp(v, "write8"))
		bench_write8(&tb.cpu, n);
	else if (!strcmp(v, "write16"))
		bench_write16(&tb.cpu, n);
	else if (!strcmp(v, "reserve8"))
		bench_reserve8(&tb.cpu, n);
	else if (!strcmp(v, "reserve16"))
		bench_reserve16(&tb.cpu, n);
	else
		return 2;
	if (!strcmp(v, "loop") ? 0 : tb.meta->entries != n) {
		fprintf(stderr, "bench %s: %llu of %llu events written\n", v,
			(unsigned long long)tb.meta->entries,
			(unsigned long long)n);
		return 1;
	}
	tb_free(&tb);
	return 0;
}
