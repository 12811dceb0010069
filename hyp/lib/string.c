// SPDX-License-Identifier: GPL-2.0
/*
 * The C library functions libfdt and the compiler expect. They also run
 * with the MMU off, where unaligned accesses fault, so they go word by word
 * only when every address involved is 8-byte aligned, and byte by byte
 * otherwise. The word path matters: handing Linux its device tree copies
 * and moves the whole blob (1 MiB from QEMU), which byte by byte was most
 * of the hypervisor's boot time.
 */
#include <stdint.h>
#include <string.h>

typedef uint64_t __attribute__((__may_alias__)) word_t;

static int word_aligned(const void *a, const void *b, size_t n)
{
	return !(((uintptr_t)a | (uintptr_t)b | n) & (sizeof(word_t) - 1));
}

void *memcpy(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (word_aligned(d, s, n)) {
		word_t *dw = dst;
		const word_t *sw = src;

		for (; n; n -= sizeof(word_t))
			*dw++ = *sw++;
		return dst;
	}
	while (n--)
		*d++ = *s++;
	return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (d <= s || d >= s + n)
		return memcpy(dst, src, n);
	/* Overlapping with the destination above: copy from the end. */
	if (word_aligned(d, s, n)) {
		word_t *dw = dst;
		const word_t *sw = src;

		for (n /= sizeof(word_t); n--; )
			dw[n] = sw[n];
		return dst;
	}
	while (n--)
		d[n] = s[n];
	return dst;
}

void *memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;

	if (word_aligned(d, d, n)) {
		word_t *dw = dst;
		word_t w = 0x0101010101010101ULL * (unsigned char)c;

		for (; n; n -= sizeof(word_t))
			*dw++ = w;
		return dst;
	}
	while (n--)
		*d++ = (unsigned char)c;
	return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;

	for (; n; n--, x++, y++)
		if (*x != *y)
			return *x - *y;
	return 0;
}

void *memchr(const void *s, int c, size_t n)
{
	const unsigned char *p = s;

	for (; n; n--, p++)
		if (*p == (unsigned char)c)
			return (void *)p;
	return NULL;
}

size_t strlen(const char *s)
{
	const char *p = s;

	while (*p)
		p++;
	return p - s;
}

size_t strnlen(const char *s, size_t max)
{
	size_t n = 0;

	while (n < max && s[n])
		n++;
	return n;
}

char *strrchr(const char *s, int c)
{
	const char *last = NULL;

	do {
		if (*s == (char)c)
			last = s;
	} while (*s++);
	return (char *)last;
}

int strncmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++) {
		if (*a != *b)
			return (unsigned char)*a - (unsigned char)*b;
		if (!*a)
			return 0;
	}
	return 0;
}
