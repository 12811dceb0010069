/* SPDX-License-Identifier: GPL-2.0 */
#ifndef DT_COPY_CHECK_H
#define DT_COPY_CHECK_H

/*
 * hyp/platform/dt_copy.c's copy of @fdt (indexed already) against the
 * same edits made by libfdt's read-write functions: the same nodes,
 * properties and reservations, every tag as libfdt reads it; then
 * the copy into too little room refused at every size.
 */
void copy_test(const void *fdt);

/* The copy of a tree the index accepted (fuzz): no access outside */
void copy_any(const void *fdt);

#endif
