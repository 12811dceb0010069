/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The loader's device tree, walked once (dt_tree.c): every node's offset,
 * parent, name and compatible, for the questions the boot asks of it.
 * libfdt answers each "which node" question (a path, a parent, a
 * compatible) with a walk from the root that checks the bounds of every
 * character of every name it passes; this answers from the index. Nodes
 * are named by libfdt's offsets, errors are its -FDT_ERR_* values, and
 * each function says which of libfdt's it stands for: the host test
 * (tests/dt) holds them to libfdt's answers.
 *
 * The index is of the loader's tree alone; Linux's copy is written from it
 * (dt_copy.c) and never read.
 */
#ifndef HYP_DT_TREE_H
#define HYP_DT_TREE_H

#include "types.h"

/* As fdt_check_header() for a version 17 tree: 0, or -FDT_ERR_* */
int dt_tree_check_header(const void *fdt);

/*
 * Walks @fdt (header checked) into the index; panics if it is malformed
 * (a tag, length or name past its block, or no end to its reservations)
 */
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

/* As fdt_get_mem_rsv(): false past the last */
bool dt_tree_memreserve(int i, u64 *base, u64 *size);

/*
 * Where the FDT_PROP at @prop of the structure block the walk checked ends:
 * the offset of the tag after its value
 */
u32 dt_tree_prop_end(u32 prop);

/* Whether the FDT_PROP at @prop is named @name */
bool dt_tree_prop_is(u32 prop, const char *name);

/* As fdt_getprop() */
const void *dt_tree_getprop(int node, const char *name, int *lenp);

/* As fdt_get_name(), without the length */
const char *dt_tree_name(int node);

/* As fdt_node_offset_by_phandle() */
int dt_tree_by_phandle(u32 phandle);

/* As fdt_address_cells() and fdt_size_cells() */
int dt_tree_address_cells(int node);
int dt_tree_size_cells(int node);

/* As !fdt_node_check_compatible() */
bool dt_tree_compatible(int node, const char *compat);

/* As fdt_stringlist_get(), without the length */
const char *dt_tree_string(int node, const char *name, int idx);

/* As fdt_stringlist_contains() */
bool dt_stringlist_contains(const char *list, int len, const char *s);

#define dt_tree_for_each_child(node, parent)				\
	for (node = dt_tree_first_child(parent); node >= 0;		\
	     node = dt_tree_next_sibling(node))

#endif /* HYP_DT_TREE_H */
