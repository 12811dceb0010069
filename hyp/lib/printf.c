// SPDX-License-Identifier: GPL-2.0
/*
 * A printf small enough for EL2, with one lock so CPUs do not interleave.
 * Every character goes to the log (hyp_log.c) and to the console, if any.
 */
#include "hyp_log.h"
#include "print.h"
#include "spinlock.h"

static struct spinlock print_lock;
/* Exclusives need the MMU on; before that only the boot CPU prints. */
static bool print_lock_usable;

void print_enable_locking(void)
{
	print_lock_usable = true;
}

static void out(char c)
{
	hyp_log_putc(c);
	uart_putc(c);
}

static void put_str(const char *s)
{
	while (*s)
		out(*s++);
}

static void put_num(u64 v, unsigned int base, int width, char pad, bool neg)
{
	char buf[24];
	int n = 0;

	do {
		buf[n++] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	if (neg)
		buf[n++] = '-';
	while (width-- > n)
		out(pad);
	while (n--)
		out(buf[n]);
}

static void format(const char *fmt, va_list ap)
{
	for (; *fmt; fmt++) {
		int width = 0, lng = 0;
		char pad = ' ';
		u64 v;

		if (*fmt != '%') {
			out(*fmt);
			continue;
		}
		fmt++;
		if (*fmt == '0')
			pad = '0';
		while (*fmt >= '0' && *fmt <= '9')
			width = width * 10 + *fmt++ - '0';
		while (*fmt == 'l') {
			lng++;
			fmt++;
		}
		switch (*fmt) {
		case 'c':
			out((char)va_arg(ap, int));
			break;
		case 's':
			put_str(va_arg(ap, const char *));
			break;
		case 'd':
			v = lng ? (u64)va_arg(ap, long) : (u64)(s64)va_arg(ap, int);
			if ((s64)v < 0)
				put_num(-v, 10, width, pad, true);
			else
				put_num(v, 10, width, pad, false);
			break;
		case 'u':
		case 'x':
			v = lng ? va_arg(ap, unsigned long) : va_arg(ap, unsigned int);
			put_num(v, *fmt == 'u' ? 10 : 16, width, pad, false);
			break;
		case 'p':
			put_str("0x");
			put_num((u64)va_arg(ap, void *), 16, 0, ' ', false);
			break;
		case '%':
			out('%');
			break;
		default:
			out('?');
			break;
		}
	}
}

void hyp_vprintf(const char *fmt, va_list ap)
{
	bool locked = READ_ONCE(print_lock_usable);

	if (locked)
		spin_lock(&print_lock);
	uart_begin();
	format(fmt, ap);
	if (locked)
		spin_unlock(&print_lock);
}

void hyp_printf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	hyp_vprintf(fmt, ap);
	va_end(ap);
}
