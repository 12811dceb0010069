// SPDX-License-Identifier: GPL-2.0
/*
 * Linux's copy of a tree (hyp/platform/dt_copy.c) against libfdt's
 * read-write functions making the same edits, the way dt.c made them
 * before dt_copy.c: nodes are compared by path and properties by name,
 * since the two place what they add differently. Each tree is walked to
 * its FDT_END by libfdt, every tag checked.
 */
#include <libfdt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "dt_copy.h"
#include "dt_copy_check.h"
#include "dt_tree.h"

#define ROOM	(1 << 20)

static const u64 pages[] = { 0x8000, 0x3f000 };

static void keep_pages(void (*fn)(void *ctx, u64 page), void *ctx)
{
	for (unsigned int i = 0; i < sizeof(pages) / sizeof(pages[0]); i++)
		fn(ctx, pages[i]);
}

/* A child of /cpus whose device_type is "cpu", in either tree */
static bool is_cpu(const void *fdt, int node, int cpus)
{
	const char *type = fdt_getprop(fdt, node, "device_type", NULL);

	return fdt_parent_offset(fdt, node) == cpus && type &&
	       !strcmp(type, "cpu");
}

static const void *indexed;

static bool psci_cpu(int node)
{
	return is_cpu(indexed, node, dt_tree_path("/cpus"));
}

static const struct dt_copy_reserve reserves[DT_COPY_RESERVES] = {
	{ "hyptrace-hyp", "hyptrace,hypervisor", 0x40200000, 0x200000 },
	{ "hyptrace-trace", "hyptrace,trace-carveout", 0x7e000000, 0x2000000 },
};

/* dt.c's edits before dt_copy.c, by libfdt: 0 or a libfdt error */
static int reference(const void *fdt, void *out, bool psci,
		     const struct dt_copy_reserve *reserves)
{
	static const char compatible[] = "arm,psci-1.0\0arm,psci-0.2";
	int err = fdt_open_into(fdt, out, ROOM), rsv, node, cpus;
	char unit[64];

	rsv = err ?: fdt_path_offset(out, "/reserved-memory");
	if (rsv == -FDT_ERR_NOTFOUND) {
		rsv = fdt_add_subnode(out, 0, "reserved-memory");
		err = rsv < 0 ? rsv :
		      fdt_setprop_u32(out, rsv, "#address-cells",
				      fdt_address_cells(out, 0)) ?:
		      fdt_setprop_u32(out, rsv, "#size-cells",
				      fdt_size_cells(out, 0)) ?:
		      fdt_setprop_empty(out, rsv, "ranges");
	}
	for (int i = 0; !err && i < DT_COPY_RESERVES; i++) {
		const struct dt_copy_reserve *r = &reserves[i];

		snprintf(unit, sizeof(unit), "%s@%llx", r->name,
			 (unsigned long long)r->base);
		node = fdt_add_subnode(out, rsv, unit);
		err = node < 0 ? node :
		      fdt_appendprop_addrrange(out, rsv, node, "reg", r->base,
					       r->size) ?:
		      fdt_setprop_empty(out, node, "no-map") ?:
		      fdt_setprop_string(out, node, "compatible",
					 r->compatible);
	}
	if (err || !psci)
		return err ?: fdt_pack(out);
	cpus = fdt_path_offset(out, "/cpus");
	fdt_for_each_subnode(node, out, cpus) {
		if (!is_cpu(out, node, cpus))
			continue;
		err = fdt_setprop_string(out, node, "enable-method", "psci");
		if (err)
			return err;
		fdt_delprop(out, node, "cpu-release-addr");
	}
	for (unsigned int i = 0; i < sizeof(pages) / sizeof(pages[0]); i++)
		err = err ?: fdt_add_mem_rsv(out, pages[i], 4096);
	node = err ?: fdt_add_subnode(out, 0, "psci");
	return node < 0 ? node :
	       fdt_setprop(out, node, "compatible", compatible,
			   sizeof(compatible)) ?:
	       fdt_setprop_string(out, node, "method", "hvc") ?:
	       fdt_pack(out);
}

/*
 * The node at @path, each name matched whole: libfdt's "serial" would
 * find "serial@1000" first (simple.dts has both)
 */
static int exact_path(const void *fdt, const char *path)
{
	const char *p = path, *q;
	int node = 0, child;

	while (*p == '/' && p[1]) {
		p++;
		q = strchr(p, '/') ?: p + strlen(p);
		fdt_for_each_subnode(child, fdt, node) {
			const char *name = fdt_get_name(fdt, child, NULL);

			if (strlen(name) == (size_t)(q - p) &&
			    !memcmp(name, p, q - p))
				break;
		}
		if (child < 0)
			return child;
		node = child;
		p = q;
	}
	return node;
}

/* Every node of @a is in @b by path, with the same properties */
static void same_nodes(const void *a, const void *b, const char *what)
{
	char path[512];
	int node, other, prop, la, lb, na, nb;

	for (node = 0; node >= 0; node = fdt_next_node(a, node, NULL)) {
		EXPECT(!fdt_get_path(a, node, path, sizeof(path)), "%s", what);
		other = exact_path(b, path);
		EXPECT(other >= 0, "%s: %s", what, path);
		if (other < 0)
			continue;
		na = nb = 0;
		fdt_for_each_property_offset(prop, a, node) {
			const char *name;
			const void *va = fdt_getprop_by_offset(a, prop, &name,
							       &la);
			const void *vb = fdt_getprop(b, other, name, &lb);

			EXPECT(vb && la == lb && !memcmp(va, vb, la),
			       "%s: %s %s", what, path, name);
			na++;
		}
		fdt_for_each_property_offset(prop, b, other)
			nb++;
		EXPECT(na == nb, "%s: %s: %d properties, %d", what, path, na,
		       nb);
	}
	EXPECT_EQ(node, -FDT_ERR_NOTFOUND);
}

static void same_tree(const void *mine, const void *theirs)
{
	u64 a, b, c, d;
	int i;

	EXPECT_EQ(fdt_check_header(mine), 0);
	same_nodes(mine, theirs, "copy in libfdt's");
	same_nodes(theirs, mine, "libfdt's in copy");
	EXPECT_EQ(fdt_num_mem_rsv(mine), fdt_num_mem_rsv(theirs));
	for (i = 0; i < fdt_num_mem_rsv(mine); i++) {
		fdt_get_mem_rsv(mine, i, &a, &b);
		fdt_get_mem_rsv(theirs, i, &c, &d);
		EXPECT(a == c && b == d, "reservation %d", i);
	}
	EXPECT_EQ(fdt_boot_cpuid_phys(mine), fdt_boot_cpuid_phys(theirs));
}

void copy_test(const void *fdt)
{
	void *mine = malloc(ROOM), *theirs = malloc(ROOM);
	struct dt_copy c = { .out = mine, .room = ROOM };
	const char *why;
	u32 size;

	memcpy(c.reserve, reserves, sizeof(reserves));
	indexed = fdt;
	/* PSCI for Linux only when the tree has no /psci (dt_cpus.c) */
	for (int psci = 0; psci < 1 + (fdt_path_offset(fdt, "/psci") < 0);
	     psci++) {
		c.psci_cpu = psci ? psci_cpu : NULL;
		c.keep_pages = psci ? keep_pages : NULL;
		c.room = ROOM;
		why = dt_copy_write(fdt, &c);
		EXPECT(!why, "%s", why);
		EXPECT_EQ(reference(fdt, theirs, psci, reserves), 0);
		if (why)
			continue;
		same_tree(mine, theirs);
		/* one byte short of what it needs, and less: refused */
		size = fdt_totalsize(mine);
		for (c.room = 0; c.room < size; c.room += 1 + c.room / 8) {
			memset(mine, 0xa5, ROOM);
			EXPECT(dt_copy_write(fdt, &c), "room %u", c.room);
			EXPECT_EQ(((u8 *)mine)[c.room], 0xa5);
		}
		c.room = size - 1;
		EXPECT(dt_copy_write(fdt, &c), "room %u", c.room);
		c.room = size;
		EXPECT(!dt_copy_write(fdt, &c), "room %u", size);
	}
	/* Above 4 GiB: refused by both where /reserved-memory has 1 cell */
	c.reserve[1].base = 0x880000000ULL;
	c.room = ROOM;
	c.psci_cpu = NULL;
	why = dt_copy_write(fdt, &c);
	EXPECT(!why == !reference(fdt, theirs, false, c.reserve), "%s",
	       why ?: "copied where libfdt refused");
	if (!why) {
		EXPECT_EQ(reference(fdt, theirs, false, c.reserve), 0);
		same_tree(mine, theirs);
	}
	free(mine);
	free(theirs);
}

void copy_any(const void *fdt)
{
	struct dt_copy c = { .psci_cpu = psci_cpu, .keep_pages = keep_pages };
	u32 room = fdt_totalsize(fdt) + 4096;

	memcpy(c.reserve, reserves, sizeof(reserves));
	indexed = fdt;
	/* exactly the room it is given: ASan sees a write past it */
	c.out = malloc(room);
	c.room = room;
	dt_copy_write(fdt, &c);
	free(c.out);
}
