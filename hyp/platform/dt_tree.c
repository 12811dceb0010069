// SPDX-License-Identifier: GPL-2.0
/*
 * The loader's device tree, walked once into an index (dt_tree.h). The
 * boot asks a dozen questions of the tree; libfdt walked it from the root
 * for each (3.6 M instructions on QEMU's 62 nodes, most of them checking
 * the bounds of one character of a node name at a time), this walks it
 * once, checking every tag, length and name against the structure block,
 * and answers every read the boot makes: the hypervisor links no libfdt,
 * only its headers for the format's constants.
 *
 * Runs on the boot CPU with the MMU off (dt.c): every load is of an
 * aligned 32-bit word or a byte.
 */
#include <libfdt.h>
#include <string.h>
#include "dt_tree.h"
#include "hyp_mem.h"
#include "panic.h"

struct dt_tree_node {
	const char *name;
	const char *compat;	/* the compatible list, or NULL */
	int offset;		/* libfdt's: from the structure block */
	int parent;		/* index, -1 for the root */
	int end;		/* index after its last descendant */
	int end_offset;		/* libfdt's offset of its FDT_END_NODE */
	u32 name_len;
	u32 compat_len;
};

static struct {
	const void *fdt;
	const char *base;	/* the structure block */
	const char *strs;	/* the strings block */
	u32 strs_size;
	struct dt_tree_node *node;
	int nr;
	int nr_rsv;		/* memory reservations */
} tree;

/* The structure block is 4-byte aligned (dt_tree_check_header()) */
static u32 be32_at(const char *base, u32 off)
{
	return fdt32_to_cpu(*(const fdt32_t *)(base + off));
}

/*
 * Whether the property name at @nameoff of the strings block is the @len
 * bytes at @name
 */
static bool prop_name_is(const char *strs, u32 strs_size, u32 nameoff,
			 const char *name, u32 len)
{
	return nameoff < strs_size && strs_size - nameoff > len &&
	       !memcmp(strs + nameoff, name, len) && !strs[nameoff + len];
}

/*
 * The number of nodes of @fdt, and into @out (unless NULL) each of them;
 * -1 if a tag, a length or a name leaves the structure block, or the
 * nodes do not nest into one root.
 */
static int walk(const void *fdt, struct dt_tree_node *out)
{
	const char *base = (const char *)fdt + fdt_off_dt_struct(fdt);
	const char *strs = (const char *)fdt + fdt_off_dt_strings(fdt);
	u32 size = fdt_size_dt_struct(fdt), strs_size = fdt_size_dt_strings(fdt);
	u32 off = 0, len, nameoff;
	int nr = 0, cur = -1, depth = 0;

	for (;;) {
		if (off > size || size - off < FDT_TAGSIZE)
			return -1;
		off += FDT_TAGSIZE;
		switch (be32_at(base, off - FDT_TAGSIZE)) {
		case FDT_BEGIN_NODE:
			if (nr && !depth)	/* a second root */
				return -1;
			len = strnlen(base + off, size - off);
			if (len == size - off)
				return -1;
			if (out) {
				out[nr] = (struct dt_tree_node){
					.name = base + off, .name_len = len,
					.offset = off - FDT_TAGSIZE,
					.parent = cur,
				};
				cur = nr;
			}
			nr++;
			depth++;
			off = ALIGN_UP(off + len + 1, FDT_TAGSIZE);
			break;
		case FDT_END_NODE:
			if (!depth--)
				return -1;
			if (out) {
				out[cur].end = nr;
				out[cur].end_offset = off - FDT_TAGSIZE;
				cur = out[cur].parent;
			}
			break;
		case FDT_PROP:
			if (!depth || size - off < 2 * FDT_TAGSIZE)
				return -1;
			len = be32_at(base, off);
			nameoff = be32_at(base, off + FDT_TAGSIZE);
			off += 2 * FDT_TAGSIZE;
			if (len > size - off)
				return -1;
			if (out && prop_name_is(strs, strs_size, nameoff,
						"compatible", 10)) {
				out[cur].compat = base + off;
				out[cur].compat_len = len;
			}
			off = ALIGN_UP(off + len, FDT_TAGSIZE);
			break;
		case FDT_NOP:
			break;
		case FDT_END:
			return depth || !nr ? -1 : nr;
		default:
			return -1;
		}
	}
}

/* Whether @off is past the header and inside the blob */
static bool off_ok(const void *fdt, u32 off)
{
	return off >= sizeof(struct fdt_header) && off <= fdt_totalsize(fdt);
}

static bool block_ok(const void *fdt, u32 off, u32 size)
{
	return off_ok(fdt, off) && off + size >= off && off_ok(fdt, off + size);
}

int dt_tree_check_header(const void *fdt)
{
	if ((unsigned long)fdt & 7)
		return -FDT_ERR_ALIGNMENT;
	if (fdt_magic(fdt) != FDT_MAGIC)
		return -FDT_ERR_BADMAGIC;
	if (fdt_totalsize(fdt) < sizeof(struct fdt_header) ||
	    fdt_totalsize(fdt) > INT_MAX)
		return -FDT_ERR_TRUNCATED;
	if (fdt_off_mem_rsvmap(fdt) % sizeof(u64) ||
	    fdt_off_dt_struct(fdt) % FDT_TAGSIZE)
		return -FDT_ERR_ALIGNMENT;
	if (!off_ok(fdt, fdt_off_mem_rsvmap(fdt)) ||
	    !block_ok(fdt, fdt_off_dt_struct(fdt), fdt_size_dt_struct(fdt)) ||
	    !block_ok(fdt, fdt_off_dt_strings(fdt), fdt_size_dt_strings(fdt)))
		return -FDT_ERR_TRUNCATED;
	return 0;
}

/*
 * The memory reservations up to the one of size 0 that ends them (as
 * fdt_num_mem_rsv() and Linux count them); -1 if that one is not inside
 * the blob.
 */
static int count_memreserve(const void *fdt)
{
	u32 off = fdt_off_mem_rsvmap(fdt), size = fdt_totalsize(fdt);
	fdt64_t entry[2];
	int nr = 0;

	for (;; off += sizeof(entry), nr++) {
		if (size - off < sizeof(entry))
			return -1;
		memcpy(entry, (const char *)fdt + off, sizeof(entry));
		if (!entry[1])
			return nr;
	}
}

bool dt_tree_memreserve(int i, u64 *base, u64 *size)
{
	fdt64_t entry[2];

	if (i < 0 || i >= tree.nr_rsv)
		return false;
	memcpy(entry, (const char *)tree.fdt + fdt_off_mem_rsvmap(tree.fdt) +
	       i * sizeof(entry), sizeof(entry));
	*base = fdt64_to_cpu(entry[0]);
	*size = fdt64_to_cpu(entry[1]);
	return true;
}

void dt_tree_build(const void *fdt)
{
	int nr = walk(fdt, NULL), nr_rsv = count_memreserve(fdt);

	if (nr < 0 || nr_rsv < 0)
		hyp_panic("the device tree at %p is malformed (a tag or name past its structure block)",
			  fdt);
	tree.node = hyp_mem_alloc_boot(nr * sizeof(*tree.node), SZ_4K,
				       "the device tree's index");
	walk(fdt, tree.node);
	tree.nr = nr;
	tree.nr_rsv = nr_rsv;
	tree.fdt = fdt;
	tree.base = (const char *)fdt + fdt_off_dt_struct(fdt);
	tree.strs = (const char *)fdt + fdt_off_dt_strings(fdt);
	tree.strs_size = fdt_size_dt_strings(fdt);
}

/* The index of the node at @offset, or -1 (nodes are in offset order) */
static int index_of(int offset)
{
	int lo = 0, hi = tree.nr;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (tree.node[mid].offset == offset)
			return mid;
		if (tree.node[mid].offset < offset)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

static int offset_of(int i)
{
	return i < 0 ? -FDT_ERR_NOTFOUND : tree.node[i].offset;
}

static int first_child(int i)
{
	return i + 1 < tree.node[i].end ? i + 1 : -1;
}

static int next_sibling(int i)
{
	int parent = tree.node[i].parent;

	if (parent < 0 || tree.node[i].end >= tree.node[parent].end)
		return -1;
	return tree.node[i].end;
}

int dt_tree_first_child(int node)
{
	int i = index_of(node);

	return i < 0 ? -FDT_ERR_BADOFFSET : offset_of(first_child(i));
}

int dt_tree_next_sibling(int node)
{
	int i = index_of(node);

	return i < 0 ? -FDT_ERR_BADOFFSET : offset_of(next_sibling(i));
}

int dt_tree_end_tag(int node)
{
	int i = index_of(node);

	return i < 0 ? -FDT_ERR_BADOFFSET : tree.node[i].end_offset;
}

int dt_tree_parent(int node)
{
	int i = index_of(node);

	return i < 0 ? -FDT_ERR_BADOFFSET : offset_of(tree.node[i].parent);
}

int dt_tree_next_compatible(int node, const char *compat)
{
	int i = node < 0 ? 0 : index_of(node) + 1;

	if (node >= 0 && !i)
		return -FDT_ERR_BADOFFSET;
	for (; i < tree.nr; i++)
		if (tree.node[i].compat &&
		    dt_stringlist_contains(tree.node[i].compat,
					   tree.node[i].compat_len, compat))
			return tree.node[i].offset;
	return -FDT_ERR_NOTFOUND;
}

/*
 * The walk checked every tag and length of the structure block, so the
 * properties of a node are read here without libfdt's bounds check of
 * each header field and tag (fdt_offset_ptr(): its fields read byte by
 * byte, -mstrict-align); the name offsets are checked here.
 */
/* prop_end(), inlined into the property reads the boot makes most */
static inline __attribute__((__always_inline__)) u32 prop_end(u32 prop)
{
	return ALIGN_UP(prop + 3 * FDT_TAGSIZE +
			be32_at(tree.base, prop + FDT_TAGSIZE), FDT_TAGSIZE);
}

u32 dt_tree_prop_end(u32 prop)
{
	return prop_end(prop);
}

/* Whether the FDT_PROP at @prop is named by the @len bytes at @name */
static bool prop_is(u32 prop, const char *name, u32 len)
{
	return prop_name_is(tree.strs, tree.strs_size,
			    be32_at(tree.base, prop + 2 * FDT_TAGSIZE), name,
			    len);
}

bool dt_tree_prop_is(u32 prop, const char *name)
{
	return prop_is(prop, name, strlen(name));
}

static const void *getprop_namelen(int node, const char *name, u32 name_len,
				   int *lenp)
{
	int i = index_of(node);
	u32 off, next, tag;

	if (i < 0) {
		if (lenp)
			*lenp = -FDT_ERR_BADOFFSET;
		return NULL;
	}
	/* The first tag after the node's name */
	off = ALIGN_UP(node + FDT_TAGSIZE + tree.node[i].name_len + 1,
		       FDT_TAGSIZE);
	for (;; off = next) {
		tag = be32_at(tree.base, off);
		next = off + FDT_TAGSIZE;
		if (tag == FDT_NOP)
			continue;
		if (tag != FDT_PROP)
			break;
		next = prop_end(off);
		if (prop_is(off, name, name_len)) {
			if (lenp)
				*lenp = be32_at(tree.base, off + FDT_TAGSIZE);
			return tree.base + off + 3 * FDT_TAGSIZE;
		}
	}
	if (lenp)
		*lenp = -FDT_ERR_NOTFOUND;
	return NULL;
}

/* libfdt's rule: "name" also finds "name@unit", "name@unit" only itself */
static bool name_is(const struct dt_tree_node *n, const char *s, u32 len)
{
	return n->name_len >= len && !memcmp(n->name, s, len) &&
	       (n->name_len == len ||
		(n->name[len] == '@' && !memchr(s, '@', len)));
}

int dt_tree_path_namelen(const char *path, int len)
{
	const char *p = path, *end = path + len, *q;
	int i = 0;

	if (len < 1)
		return -FDT_ERR_BADPATH;
	/* An alias for the first component (stdout-path = "serial0") */
	if (*path != '/') {
		int alias_len, aliases = dt_tree_path("/aliases");
		const char *alias;

		q = memchr(p, '/', len) ?: end;
		alias = aliases < 0 ? NULL :
			getprop_namelen(aliases, p, q - p, &alias_len);
		/* a path from the root, a string */
		if (!alias || alias_len < 2 || *alias != '/' ||
		    alias[alias_len - 1])
			return -FDT_ERR_BADPATH;
		i = dt_tree_path(alias);
		if (i < 0)
			return i;
		i = index_of(i);
		p = q;
	}
	while (p < end) {
		while (p < end && *p == '/')
			p++;
		if (p == end)
			break;
		q = memchr(p, '/', end - p) ?: end;
		for (i = first_child(i); i >= 0; i = next_sibling(i))
			if (name_is(&tree.node[i], p, q - p))
				break;
		if (i < 0)
			return -FDT_ERR_NOTFOUND;
		p = q;
	}
	return tree.node[i].offset;
}

int dt_tree_path(const char *path)
{
	return dt_tree_path_namelen(path, strlen(path));
}

const void *dt_tree_getprop(int node, const char *name, int *lenp)
{
	return getprop_namelen(node, name, strlen(name), lenp);
}

const char *dt_tree_name(int node)
{
	int i = index_of(node);

	return i < 0 ? NULL : tree.node[i].name;
}

int dt_tree_by_phandle(u32 phandle)
{
	const fdt32_t *ph;
	int i, len;

	if (!phandle || phandle == ~0U)
		return -FDT_ERR_BADPHANDLE;
	for (i = 0; i < tree.nr; i++) {
		ph = dt_tree_getprop(tree.node[i].offset, "phandle", &len);
		if (!ph)
			ph = dt_tree_getprop(tree.node[i].offset,
					     "linux,phandle", &len);
		if (ph && len == sizeof(*ph) && fdt32_to_cpu(*ph) == phandle)
			return tree.node[i].offset;
	}
	return -FDT_ERR_NOTFOUND;
}

/* A #address-cells or #size-cells: @absent if none, -1 if not 0..4 */
static int cells(int node, const char *name, int absent)
{
	const fdt32_t *c;
	int len;

	c = dt_tree_getprop(node, name, &len);
	if (!c)
		return len == -FDT_ERR_NOTFOUND ? absent : -FDT_ERR_BADNCELLS;
	if (len != sizeof(*c) || fdt32_to_cpu(*c) > FDT_MAX_NCELLS)
		return -FDT_ERR_BADNCELLS;
	return fdt32_to_cpu(*c);
}

int dt_tree_address_cells(int node)
{
	return cells(node, "#address-cells", 2) ?: -FDT_ERR_BADNCELLS;
}

int dt_tree_size_cells(int node)
{
	return cells(node, "#size-cells", 1);
}

bool dt_tree_compatible(int node, const char *compat)
{
	int i = index_of(node);

	return i >= 0 && tree.node[i].compat &&
	       dt_stringlist_contains(tree.node[i].compat,
				      tree.node[i].compat_len, compat);
}

const char *dt_tree_string(int node, const char *name, int idx)
{
	const char *list;
	int len, n;

	list = dt_tree_getprop(node, name, &len);
	for (; list && len > 0; list += n + 1, len -= n + 1) {
		n = strnlen(list, len);
		if (n == len)
			return NULL;	/* not NUL-terminated */
		if (!idx--)
			return list;
	}
	return NULL;
}

bool dt_stringlist_contains(const char *list, int len, const char *s)
{
	int n = strlen(s) + 1;
	const char *nul;

	while (len >= n) {
		if (!memcmp(list, s, n))
			return true;
		nul = memchr(list, '\0', len);
		if (!nul)
			return false;
		len -= nul + 1 - list;
		list = nul + 1;
	}
	return false;
}
