// SPDX-License-Identifier: GPL-2.0
/*
 * The C library functions the compiler and the boot expect. They also run
 * with the MMU off, where unaligned accesses fault, so they go by the
 * widest access every address involved is aligned for (8, 4 or 1 bytes),
 * the last few bytes byte by byte. The wide paths matter: handing Linux its
 * device tree copies and moves the blob, which byte by byte was most of the
 * hypervisor's boot time.
 */
#include <stdint.h>
#include <string.h>

typedef uint64_t __attribute__((__may_alias__)) word_t;
typedef uint32_t __attribute__((__may_alias__)) half_t;

/*
 * The widest access the addresses @a and @b (both 0 mod it) allow: 8, 4
 * or 1 bytes. Linux's copy of the device tree is copied in 4-byte aligned
 * runs of any length (dt_copy.c); libfdt's inserts, byte by byte, were
 * 0.45 M instructions of the boot.
 */
static size_t access_width(uintptr_t a, uintptr_t b)
{
	return !((a | b) & 7) ? 8 : !((a | b) & 3) ? 4 : 1;
}

void *memcpy(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	/* Up to where @s is aligned: @d then is too, if it can be */
	for (; n && (uintptr_t)s & 7; n--)
		*d++ = *s++;
	switch (access_width((uintptr_t)d, (uintptr_t)s)) {
	case 8:
		for (; n >= 8; n -= 8, d += 8, s += 8)
			*(word_t *)d = *(const word_t *)s;
		break;
	case 4:
		for (; n >= 4; n -= 4, d += 4, s += 4)
			*(half_t *)d = *(const half_t *)s;
		break;
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
	for (; n && (uintptr_t)(s + n) & 7; n--)
		d[n - 1] = s[n - 1];
	switch (access_width((uintptr_t)(d + n), (uintptr_t)(s + n))) {
	case 8:
		for (; n >= 8; n -= 8)
			*(word_t *)(d + n - 8) = *(const word_t *)(s + n - 8);
		break;
	case 4:
		for (; n >= 4; n -= 4)
			*(half_t *)(d + n - 4) = *(const half_t *)(s + n - 4);
		break;
	}
	while (n--)
		d[n] = s[n];
	return dst;
}

void *memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;

	if (access_width((uintptr_t)d, 0) == 8) {
		word_t w = 0x0101010101010101ULL * (unsigned char)c;

		/* 64 bytes a round, paired (STP): the boot zeroes stacks and tables */
		for (; n >= 64; n -= 64, d += 64) {
			word_t *dw = (word_t *)d;

			dw[0] = w;
			dw[1] = w;
			dw[2] = w;
			dw[3] = w;
			dw[4] = w;
			dw[5] = w;
			dw[6] = w;
			dw[7] = w;
		}
		for (; n >= 8; n -= 8, d += 8)
			*(word_t *)d = w;
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
