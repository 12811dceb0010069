/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tracefs text files of the hypervisor remote as a Linux 7.x arm64
 * kernel prints them for hyptrace.ko, built on the host from the same event
 * table (shared/hyp_events.h): events/header_page, events/header_event and
 * events/hypervisor/<event>/format. For test programs.
 */
#ifndef HYPTRACE_TESTS_GEN_FORMATS_H
#define HYPTRACE_TESTS_GEN_FORMATS_H

#include <stddef.h>

struct gen_text {
	char *name;	/* "header_page", "header_event", "hyp_enter", ... */
	char *text;
	size_t len;
};

/* header_page for @page_size-byte pages (arm64: plain char is unsigned) */
struct gen_text gen_header_page(unsigned int page_size);
struct gen_text gen_header_event(void);

/* One format file per HYPTRACE_EVENTS entry; returns how many */
unsigned int gen_event_formats(struct gen_text **out);

/* @n texts at @t freed (not @t itself) */
void gen_free_texts(struct gen_text *t, unsigned int n);

#endif /* HYPTRACE_TESTS_GEN_FORMATS_H */
