/* SPDX-License-Identifier: GPL-2.0 */
/* The few C library string functions the hypervisor (and libfdt) use. */
#ifndef HYP_SYS_STRING_H
#define HYP_SYS_STRING_H

#include <stddef.h>

void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
void *memchr(const void *s, int c, size_t n);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t max);
char *strrchr(const char *s, int c);
int strncmp(const char *a, const char *b, size_t n);

#endif /* HYP_SYS_STRING_H */
