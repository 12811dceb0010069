// SPDX-License-Identifier: GPL-2.0
/*
 * hyp/platform/uart.c on the host, against a fake PL011 and a fake counter that
 * ticks once per read: a FIFO that never drains costs one bounded wait per
 * print, what is dropped is counted and reported on the next line that gets
 * through, and a FIFO that drains within the wait loses nothing.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io.h"
#include "print.h"

#define BASE		0x9000000UL
#define FREQ		1000000ULL	/* 1 MHz: a 1 ms wait is 1000 ticks */

static char out[4096];
static size_t out_len;
static u64 counter;
static unsigned long fr_reads;
static long full_for = -1;	/* FR reads TXFF this many more times; -1: forever */
static int failed;

u64 fake_read_cntfrq_el0(void)
{
	return FREQ;
}

u64 fake_read_cntpct_el0(void)
{
	return counter++;
}

u32 fake_mmio_read32(phys_addr_t addr)
{
	if (addr != BASE + 0x18)
		return 0;
	fr_reads++;
	if (full_for < 0)
		return 1U << 5;
	if (full_for > 0) {
		full_for--;
		return 1U << 5;
	}
	return 0;
}

void fake_mmio_write32(phys_addr_t addr, u32 val)
{
	if (addr == BASE && out_len < sizeof(out) - 1)
		out[out_len++] = (char)val;
}

/* Weak, so that the test also links with a uart.c from before it */
#pragma weak uart_begin

/* A print as hyp_vprintf makes it: uart_begin(), then the characters */
static void print(const char *s)
{
	if (uart_begin)
		uart_begin();
	while (*s)
		uart_putc(*s++);
}

static void expect(int ok, const char *what)
{
	printf("%s: %s\n", ok ? "ok" : "FAILED", what);
	if (!ok)
		failed = 1;
}

static void reset_out(void)
{
	memset(out, 0, sizeof(out));
	out_len = 0;
	fr_reads = 0;
}

static void hung(int sig)
{
	static const char msg[] =
		"FAILED: uart_putc still waiting after 5 s on a FIFO that never drains\nuart: FAILED\n";

	(void)sig;
	if (write(1, msg, sizeof(msg) - 1) < 0)
		_exit(2);
	_exit(1);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGALRM, hung);
	alarm(5);
	uart_init(BASE);

	full_for = 0;
	print("hello\n");
	expect(!strcmp(out, "hello\r\n"), "a draining FIFO gets every byte, \\n as \\r\\n");

	/* Stuck: 7 bytes (\r included) dropped, one wait of 1000 ticks */
	reset_out();
	full_for = -1;
	counter = 0;
	print("stuck\n");
	expect(out_len == 0, "a full FIFO gets nothing");
	expect(counter >= 1000 && counter < 1100,
	       "one wait of 1 ms of counter for the whole print");
	expect(fr_reads < counter + 16, "no polling after the timeout");

	/* A second print waits once more, and the FIFO stays dead */
	counter = 0;
	print("dead\n");
	expect(out_len == 0 && counter < 1100, "the next print waits once");

	/* It drains: the report first (13 dropped), then the line */
	reset_out();
	full_for = 0;
	print("back\n");
	expect(!strcmp(out, "hyptrace: console dropped 13 bytes\r\nback\r\n"),
	       "the dropped count reported once, before the next line");
	reset_out();
	print("again\n");
	expect(!strcmp(out, "again\r\n"), "reported only once");

	/* Full for less than the wait: slow, not lost */
	reset_out();
	full_for = 500;
	counter = 0;
	print("slow\n");
	expect(!strcmp(out, "slow\r\n"), "a FIFO that drains within 1 ms loses nothing");

	printf("uart: %s\n", failed ? "FAILED" : "passed");
	return failed;
}
