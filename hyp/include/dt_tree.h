/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The loader's device tree, walked once (dt_tree.c): every node's offset,
 * parent, name and compatible, for the questions the boot asks of it.
 * libfdt answers each "which node" question (a path, a parent, a
 * compatible) with a walk from the root that checks the bounds of every
 * character of every name it passes; this answers from the index. Offsets
 * are libfdt's, so the answers go on to fdt_getprop() and friends.
 *
 * The index is of the loader's tree alone; Linux's copy (dt.c) has the
 * same offsets until its first edit, and libfdt answers for it after.
 */
#ifndef HYP_DT_TREE_H
#define HYP_DT_TREE_H

#include "types.h"

/* Walks @fdt (header checked) into the index; panics if it is malformed */
void dt_tree_build(const void *fdt);

/* As fdt_path_offset() and fdt_path_offset_namelen() (aliases too) */
int dt_tree_path(const char *path);
int dt_tree_path_namelen(const char *path, int len);

/* The offset of @node's FDT_END_NODE tag: where a last child would go */
int dt_tree_end_tag(int node);

/* As fdt_parent_offset() */
int dt_tree_parent(int node);

/*
 * As fdt_node_offset_by_compatible(): the next node after @node (-1: the
 * first) whose compatible list holds @compat
 */
int dt_tree_next_compatible(int node, const char *compat);

/* As fdt_first_subnode() and fdt_next_subnode() */
int dt_tree_first_child(int node);
int dt_tree_next_sibling(int node);

/*
 * As fdt_getprop(); from the index when @fdt is the loader's tree (the one
 * walked), from libfdt for any other (Linux's copy)
 */
const void *dt_tree_getprop(const void *fdt, int node, const char *name,
			    int *lenp);

#define dt_tree_for_each_child(node, parent)				\
	for (node = dt_tree_first_child(parent); node >= 0;		\
	     node = dt_tree_next_sibling(node))

#endif /* HYP_DT_TREE_H */
