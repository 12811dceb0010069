// SPDX-License-Identifier: GPL-2.0
/*
 * hyp/platform/dt_tree.c against libfdt, over real trees given as
 * arguments: for every node, its parent, children, path, properties and
 * compatible matches as libfdt answers them. Then the walk over mutated
 * copies of each tree (built with ASan and UBSan): a malformed tree is a
 * panic, never a read outside the blob, and a tree it accepts answers
 * every question without leaving it. The index is what would serve the
 * boot's reads in place of libfdt's (issue 26).
 *
 *   dt_tree_test [--fuzz N] TREE.dtb...
 */
#include <libfdt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "dt_copy_check.h"
#include "dt_tree.h"
#include "panic_catch.h"

static void *load(const char *path, size_t *sizep)
{
	FILE *f = fopen(path, "rb");
	size_t size;
	void *buf;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	rewind(f);
	/* exactly the file's size: ASan sees a read one byte past it */
	buf = malloc(size);
	if (buf && fread(buf, 1, size, f) != size) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	*sizep = size;
	return buf;
}

/* The index's answers for @node equal libfdt's */
static void compare_node(const void *fdt, int node)
{
	char path[512];
	const char *name, *compat;
	const void *a, *b;
	int prop, la, lb, len, i, j;

	EXPECT_EQ(dt_tree_parent(node), fdt_parent_offset(fdt, node));
	EXPECT_EQ(dt_tree_first_child(node), fdt_first_subnode(fdt, node));
	if (node)
		EXPECT_EQ(dt_tree_next_sibling(node),
			  fdt_next_subnode(fdt, node));
	if (!fdt_get_path(fdt, node, path, sizeof(path)))
		EXPECT_EQ(dt_tree_path(path), fdt_path_offset(fdt, path));
	EXPECT_EQ(fdt32_to_cpu(*(const fdt32_t *)((const char *)fdt +
		  fdt_off_dt_struct(fdt) + dt_tree_end_tag(node))),
		  FDT_END_NODE);

	fdt_for_each_property_offset(prop, fdt, node) {
		b = fdt_getprop_by_offset(fdt, prop, &name, &lb);
		a = dt_tree_getprop(node, name, &la);
		EXPECT(a == b, "%s", name);
		EXPECT_EQ(la, lb);
	}
	la = 0;
	EXPECT(!dt_tree_getprop(node, "no-such-property", &la));
	EXPECT_EQ(la, -FDT_ERR_NOTFOUND);
	EXPECT(dt_tree_name(node) == fdt_get_name(fdt, node, NULL), "name");
	EXPECT_EQ(dt_tree_address_cells(node), fdt_address_cells(fdt, node));
	EXPECT_EQ(dt_tree_size_cells(node), fdt_size_cells(fdt, node));
	if (fdt_get_phandle(fdt, node))
		EXPECT_EQ(dt_tree_by_phandle(fdt_get_phandle(fdt, node)),
			  fdt_node_offset_by_phandle(fdt,
						     fdt_get_phandle(fdt, node)));

	/* every node libfdt finds compatible with each of its strings */
	compat = fdt_getprop(fdt, node, "compatible", &len);
	for (j = 0; compat && j < fdt_stringlist_count(fdt, node, "compatible");
	     j++) {
		const char *s = fdt_stringlist_get(fdt, node, "compatible", j,
						   NULL);

		EXPECT(dt_tree_string(node, "compatible", j) == s, "%s", s);
		EXPECT(dt_tree_compatible(node, s), "%s", s);

		for (i = -1;;) {
			int want = fdt_node_offset_by_compatible(fdt, i, s);

			i = dt_tree_next_compatible(i, s);
			EXPECT_EQ(i, want);
			if (i < 0 || want < 0)
				break;
		}
	}
}

/* The header, the reservations and the aliases, as libfdt reads them */
static void compare_tree(const void *fdt)
{
	int aliases = fdt_path_offset(fdt, "/aliases"), prop, i, len;
	u64 base, size, lbase, lsize;
	char path[256];

	EXPECT_EQ(dt_tree_check_header(fdt), fdt_check_header(fdt));
	for (i = 0; i < fdt_num_mem_rsv(fdt); i++) {
		EXPECT(dt_tree_memreserve(i, &base, &size), "entry %d", i);
		fdt_get_mem_rsv(fdt, i, &lbase, &lsize);
		EXPECT(base == lbase && size == lsize, "entry %d", i);
	}
	EXPECT(!dt_tree_memreserve(i, &base, &size), "entry %d", i);
	fdt_for_each_property_offset(prop, fdt, aliases) {
		const char *name;

		fdt_getprop_by_offset(fdt, prop, &name, &len);
		EXPECT_EQ(dt_tree_path(name), fdt_path_offset(fdt, name));
		snprintf(path, sizeof(path), "%s/no-such-node", name);
		EXPECT_EQ(dt_tree_path(path), fdt_path_offset(fdt, path));
	}
	EXPECT(dt_tree_path("no-such-alias") < 0, "no-such-alias");
}

static int compare(const char *path)
{
	size_t size;
	void *fdt = load(path, &size);
	int node, nodes = 0;

	ck_begin();
	CHECK(fdt && !fdt_check_header(fdt) && fdt_totalsize(fdt) <= size,
	      "%s", path);
	CHECK(!setjmp(panic_jmp), "%s: %s", path, panic_msg);
	dt_tree_build(fdt);
	for (node = 0; node >= 0; node = fdt_next_node(fdt, node, NULL)) {
		compare_node(fdt, node);
		nodes++;
	}
	EXPECT_EQ(node, -FDT_ERR_NOTFOUND);
	compare_tree(fdt);
	copy_test(fdt);
	free(fdt);
	return ck_end("%s: %d nodes as libfdt reads them, and its copy for Linux",
		      path, nodes);
}

/* Every question of every node the index holds, from the root down */
static volatile unsigned int sink;

static void ask_all(const void *fdt, int node, int depth)
{
	int child, len;

	if (depth > 64)
		return;
	sink += (unsigned int)dt_tree_parent(node) + dt_tree_end_tag(node);
	if (dt_tree_getprop(node, "compatible", &len))
		sink += len;
	if (dt_tree_getprop(node, "reg", &len))
		sink += len;
	sink += dt_tree_address_cells(node) + dt_tree_size_cells(node);
	if (dt_tree_string(node, "compatible", 1))
		sink++;
	dt_tree_for_each_child(child, node)
		ask_all(fdt, child, depth + 1);
}

static u64 rng = 0x9e3779b97f4a7c15ull;

static u32 next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng >> 16;
}

static int fuzz(const char *path, int rounds)
{
	size_t size;
	void *orig = load(path, &size);
	int r, accepted = 0, refused = 0;

	ck_begin();
	CHECK(orig, "%s", path);
	for (r = 0; r < rounds; r++) {
		void *fdt = malloc(size);
		u32 struct_off = fdt_off_dt_struct(orig);
		u32 struct_size = fdt_size_dt_struct(orig);
		int k, n = 1 + next_rand() % 8;

		memcpy(fdt, orig, size);
		for (k = 0; k < n; k++) {
			/* mostly the structure block, some the header */
			u32 off = next_rand() % 4 ? struct_off +
				  next_rand() % struct_size :
				  next_rand() % FDT_V17_SIZE;

			((u8 *)fdt)[off] = next_rand() % 3 ? next_rand() :
					   ((u8 *)fdt)[off] ^ 1;
		}
		/* dt.c checks the header before it builds the index */
		if (dt_tree_check_header(fdt) || fdt_totalsize(fdt) > size) {
			free(fdt);
			continue;
		}
		if (setjmp(panic_jmp)) {
			refused++;
			free(fdt);
			continue;
		}
		dt_tree_build(fdt);
		accepted++;
		ask_all(fdt, 0, 0);
		dt_tree_path("/soc/serial");
		dt_tree_next_compatible(-1, "arm,pl011");
		copy_any(fdt);
		free(fdt);
	}
	free(orig);
	EXPECT(accepted && refused, "accepted %d refused %d", accepted,
	       refused);
	return ck_end("%s: %d mutations, %d accepted, %d refused (panic)",
		      path, rounds, accepted, refused);
}

int main(int argc, char **argv)
{
	int i = 1, rounds = 0;

	if (argc > 2 && !strcmp(argv[1], "--fuzz")) {
		rounds = atoi(argv[2]);
		i = 3;
	}
	for (; i < argc; i++)
		if (rounds)
			fuzz(argv[i], rounds);
		else
			compare(argv[i]);
	return ck_exit();
}
