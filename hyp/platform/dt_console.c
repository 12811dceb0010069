// SPDX-License-Identifier: GPL-2.0
/*
 * The console, found as Linux's earlycon finds it (drivers/of/fdt.c,
 * drivers/tty/serial/earlycon.c): /chosen/stdout-path (or the older
 * linux,stdout-path) is a full path or an alias, possibly followed by
 * ":options", which are for Linux; the node must be enabled; its reg is
 * translated to a CPU address (dt_addr.c); reg-offset, reg-shift and
 * reg-io-width apply. Anything else, or a
 * compatible no driver claims, means no console: the hypervisor then
 * writes to its log only (hyp_log.c). Nothing here touches the device.
 *
 * Built on the host too, against the system's libfdt, for tests/uart/.
 */
#include <libfdt.h>
#include <string.h>
#include "dt_addr.h"
#include "dt_console.h"
#include "dt_tree.h"
#include "uart.h"

/* The C library's strcmp() == 0, from what the hypervisor's has */
static bool streq(const char *a, const char *b)
{
	return !strncmp(a, b, strlen(a) + 1);
}

/* Whether @compat matches @pattern, in which one '*' matches any run */
static bool compat_match(const char *pattern, const char *compat)
{
	const char *star = memchr(pattern, '*', strlen(pattern));
	size_t pre, post, len = strlen(compat);

	if (!star)
		return streq(pattern, compat);
	pre = star - pattern;
	post = strlen(star + 1);
	return len >= pre + post && !strncmp(compat, pattern, pre) &&
	       streq(compat + len - post, star + 1);
}

/* The driver for the node's compatibles, most specific first */
static const struct uart_driver *find_driver(int node)
{
	const struct uart_driver *const *d;
	const char *compat;
	int i, j;

	for (i = 0; (compat = dt_tree_string(node, "compatible", i)); i++)
		for (d = uart_drivers; *d; d++)
			for (j = 0; (*d)->compatible[j]; j++)
				if (compat_match((*d)->compatible[j], compat))
					return *d;
	return NULL;
}

static bool get_u32(int node, const char *name, u32 *val)
{
	int len;
	const fdt32_t *p = dt_tree_getprop(node, name, &len);

	if (!p || len != 4)
		return false;
	*val = fdt32_ld(p);
	return true;
}

/* reg-offset, reg-shift and reg-io-width, where the driver takes them */
static const char *node_layout(int node, struct uart *u)
{
	u32 v;

	u->reg_shift = u->drv->reg_shift;
	u->io_width = u->drv->io_width;
	if (get_u32(node, "reg-offset", &v))
		u->base += v;
	if (!u->drv->dt_layout)
		return NULL;
	if (get_u32(node, "reg-shift", &v)) {
		/* Registers up to 64 KiB apart: past that, a typo */
		if (v > 16)
			return "its reg-shift is over 16";
		u->reg_shift = v;
	}
	if (get_u32(node, "reg-io-width", &v)) {
		if (v != 1 && v != 2 && v != 4)
			return "its reg-io-width is not 1, 2 or 4";
		u->io_width = v;
	}
	/* A big-endian UART is one no driver here writes correctly */
	if (dt_tree_getprop(node, "big-endian", NULL))
		return "it is big-endian";
	return NULL;
}

const char *dt_console_find(struct dt_console *c)
{
	int chosen = dt_tree_path("/chosen"), node;
	const struct uart_driver *drv;
	const char *colon, *why;
	int len;
	u64 addr;

	memset(c, 0, sizeof(*c));
	if (chosen < 0)
		return "no /chosen node";
	c->path = dt_tree_getprop(chosen, "stdout-path", &len);
	if (!c->path)
		c->path = dt_tree_getprop(chosen, "linux,stdout-path", &len);
	if (!c->path || len < 1 || c->path[len - 1])
		return "no /chosen/stdout-path";
	colon = memchr(c->path, ':', len);
	c->path_len = colon ? colon - c->path : (int)strlen(c->path);
	/* An alias for the first component is taken, as Linux takes it */
	node = dt_tree_path_namelen(c->path, c->path_len);
	if (node < 0)
		return "stdout-path names no node";
	c->compatible = dt_tree_string(node, "compatible", 0);
	if (!dt_node_enabled(node))
		return "its node is disabled";
	drv = find_driver(node);
	if (!drv)
		return "no driver for its compatible";
	why = dt_node_reg(node, &addr, NULL);
	if (why)
		return why;
	c->uart.drv = drv;
	c->uart.base = addr;
	why = node_layout(node, &c->uart);
	if (why)
		c->uart.drv = NULL;
	return why;
}
