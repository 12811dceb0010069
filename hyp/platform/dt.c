// SPDX-License-Identifier: GPL-2.0
/*
 * The device tree: what the hypervisor learns from it (the console, initrd,
 * options; memory in dt_mem.c, CPUs in dt_cpus.c) and how it hands Linux an
 * edited copy that reserves the hypervisor's memory and the trace carve-out.
 *
 * dt_parse() runs on the boot CPU with the MMU off, where an unaligned
 * access faults: the index (dt_tree.c) and the copy (dt_copy.c) read the
 * tree by aligned words and bytes, built with -mstrict-align.
 */
#include <libfdt.h>
#include "bootargs.h"
#include "cache.h"
#include "dt.h"
#include "dt_addr.h"
#include "dt_console.h"
#include "dt_copy.h"
#include "dt_tree.h"
#include "fw_trace.h"
#include "hyp_layout.h"
#include "mem_ranges.h"
#include "mmio_trace.h"
#include "panic.h"
#include "print.h"
#include "psci.h"
#include "spin_table.h"
#include "sysregs.h"
#include "trace.h"
#include "uart.h"
#include "shared/hyptrace_abi.h"

#define DTB_EXTRA_ROOM		SZ_64K		/* for our nodes, and Linux's own edits */
#define DTB_MAX_SIZE		SZ_2M		/* booting.rst */

/* Options a boot loader can set in /chosen, documented in boot/README.md */
#define CHOSEN_KERNEL		"hyptrace,kernel"
#define CHOSEN_CARVEOUT_SIZE	"hyptrace,carveout-size"
#define BOOTARG_CARVEOUT	"hyptrace.carveout="
/* Leave the debug and trace register windows to EL1 (stage2.c) */
#define BOOTARG_ALLOW_DEBUG	"hyptrace.allow_debug"
/* Test only: lose the first CPU_ON start of this CPU (psci_relay.c) */
#define BOOTARG_LOSE_CPU_ON	"hyptrace.test_lose_cpu_on="
#define BOOTARG_STALL_CPU_ON	"hyptrace.test_stall_cpu_on="
/* Test only: panic before Linux, unless the last boot did (hyp_log.c) */
#define BOOTARG_TEST_PANIC	"hyptrace.test_panic="
#define TEST_PANIC_BEFORE_LINUX	"before-linux"
/* Linux's: on a panic, reset (any value but 0) rather than stay down */
#define BOOTARG_PANIC		"panic="
#define PANIC_MAX_DIGITS	9
#define CPU_NUMBER_MAX_DIGITS	4	/* HYP_MAX_CPUS and more */
#define SIZE_MAX_DIGITS		18	/* bytes: far above any RAM */
#define DT_PATH_MAX		64	/* of stdout-path, quoted in the log */

struct dt_initrd {
	u64 start, end;
};
static struct dt_initrd initrd;

static bool get_u64_prop(int node, const char *name, u64 *val)
{
	int len;
	const fdt32_t *p = dt_tree_getprop(node, name, &len);

	if (!p || (len != 4 && len != 8))
		return false;
	*val = dt_read_cells(p, len / 4);
	return true;
}

/*
 * The decimal number at *@s, before @end, of at most @max_digits digits
 * (few enough not to overflow), *@s moved past it; false if there is no
 * digit or there are too many.
 */
static bool parse_decimal(const char **s, const char *end,
			  unsigned int max_digits, u64 *val)
{
	const char *p = *s;
	u64 v = 0;

	for (; p < end && *p >= '0' && *p <= '9'; p++) {
		if ((unsigned int)(p - *s) == max_digits)
			return false;
		v = v * 10 + (u64)(*p - '0');
	}
	if (p == *s)
		return false;
	*s = p;
	*val = v;
	return true;
}

/*
 * "32M", "65536K", "1G" or plain bytes; 0 if malformed or not below 2^64
 * (17592186044414M must not come out as 2^64 - 2 MiB)
 */
static u64 parse_size(const char *s, const char *end)
{
	unsigned int shift;
	u64 v;

	if (!parse_decimal(&s, end, SIZE_MAX_DIGITS, &v))
		return 0;
	if (s == end)
		return v;
	if (s + 1 != end)
		return 0;
	switch (*s | 0x20) {	/* either case */
	case 'k':
		shift = 10;
		break;
	case 'm':
		shift = 20;
		break;
	case 'g':
		shift = 30;
		break;
	default:
		return 0;
	}
	return v > ~0UL >> shift ? 0 : v << shift;
}

/*
 * hyptrace.carveout=SIZE[@BASE], in crashkernel='s form (64M, 64M@1536M):
 * into *@size and *@base, each left alone if not given. False if malformed.
 */
static bool carveout_from_bootargs(const char *args, int len, u64 *size,
				   u64 *base)
{
	const char *v, *e, *at;

	if (!find_bootarg(args, len, BOOTARG_CARVEOUT, &v, &e))
		return true;
	for (at = v; at < e && *at != '@'; at++)
		;
	*size = parse_size(v, at);
	if (at < e)
		*base = parse_size(at + 1, e);
	return *size && (at == e || *base);
}

/*
 * hyptrace.test_lose_cpu_on=N, hyptrace.test_stall_cpu_on=N: the boot
 * loader (never Linux, which cannot change the command line the hypervisor
 * read) asks that CPU N's first CPU_ON start be lost, the CPU turning off
 * again or hanging before it reaches Linux, so that a test can check what
 * the PSCI relay answers then.
 */
static void lose_cpu_on_from_bootargs(const char *args, int len,
				      const char *name, bool stall)
{
	const char *v, *e;
	u64 cpu;

	if (!find_bootarg(args, len, name, &v, &e))
		return;
	if (!parse_decimal(&v, e, CPU_NUMBER_MAX_DIGITS, &cpu) || v != e)
		cpu = ~0ULL;
	/* The boot CPU is the one CPU Linux never starts with CPU_ON */
	if (!cpu || cpu >= hyp_layout.nr_cpus)
		hyp_panic("malformed %s (want a secondary CPU's number)", name);
	psci_lose_first_start((unsigned int)cpu, stall);
}

/*
 * hyptrace.allow_debug, a flag: anything after it (hyptrace.allow_debug=1)
 * is refused with a line, and the windows stay out of stage 2
 */
static void allow_debug_from_bootargs(const char *args, int len)
{
	const char *v, *e;

	if (!find_bootarg(args, len, BOOTARG_ALLOW_DEBUG, &v, &e))
		return;
	if (v != e) {
		hyp_info("%s takes no value: debug windows stay kept from EL1\n",
			 BOOTARG_ALLOW_DEBUG);
		return;
	}
	hyp_layout.allow_debug = true;
}

#define EARLY_ALL		"all"
#define EARLY_SIZE		"size="
#define EARLY_WORD_MAX		32	/* of a bad word quoted on the console */
#define EARLY_KB_MAX_DIGITS	9	/* far above any carve-out */

/* Whether [@s, @e) is exactly @word */
static bool word_is(const char *s, const char *e, const char *word)
{
	size_t n = strlen(word);

	return (size_t)(e - s) == n && !strncmp(s, word, n);
}

/* The console line for a hyptrace.early= the hypervisor cannot use */
static void early_refuse(const char *why, const char *s, const char *e)
{
	char word[EARLY_WORD_MAX];
	size_t n = min((size_t)(e - s), sizeof(word) - 1);

	memcpy(word, s, n);
	word[n] = '\0';
	hyp_info("%s%s '%s' (want %s=all or EVENT+EVENT..., optionally ,size=KB): no early capture\n",
		 HYPTRACE_EARLY_BOOTARG, why, word, HYPTRACE_EARLY_BOOTARG);
}

/* The event whose name is [@s, @e), or 0 */
static unsigned int early_event_id(const char *s, const char *e)
{
	unsigned int id;

	for (id = 1; id <= HYP_NR_EVENTS; id++)
		if (word_is(s, e, trace_event_name(id)))
			return id;
	return 0;
}

/*
 * hyptrace.early=EVENTS[,size=KB]: the events to capture from the
 * hypervisor's boot ("all", or names joined by '+'), and the buffer per
 * CPU in KiB. Anything else, or a repeated or empty part, is refused with
 * one line: the boot goes on without early capture rather than guess.
 */
static void early_from_bootargs(const char *args, int len)
{
	const char *v, *e, *p, *w, *comma, *why, *bad, *bad_end;
	u64 events = 0, kb = HYPTRACE_EARLY_DEFAULT_KB;
	unsigned int id;

	if (!find_bootarg(args, len, HYPTRACE_EARLY_BOOTARG, &v, &e))
		return;
	comma = memchr(v, ',', e - v);
	if (comma) {
		bad = comma + 1;
		bad_end = e;
		p = bad + strlen(EARLY_SIZE);
		why = "unknown option";
		if (e - bad < (long)strlen(EARLY_SIZE) ||
		    strncmp(bad, EARLY_SIZE, strlen(EARLY_SIZE)))
			goto refuse;
		why = "size out of range (KiB)";
		if (!parse_decimal(&p, e, EARLY_KB_MAX_DIGITS, &kb) ||
		    p != e || !kb)
			goto refuse;
		e = comma;
	}
	if (word_is(v, e, EARLY_ALL)) {
		for (id = 1; id <= HYP_NR_EVENTS; id++)
			events |= 1ULL << id;
		v = e;
	}
	/* Names joined by '+': an empty one (a stray '+') is no name */
	for (w = v; w < e || (w == e && e > v && e[-1] == '+'); w = p + 1) {
		p = memchr(w, '+', e - w) ?: e;
		bad = w;
		bad_end = p;
		id = early_event_id(w, p);
		why = "unknown event";
		if (!id)
			goto refuse;
		why = "event named twice";
		if (events & (1ULL << id))
			goto refuse;
		events |= 1ULL << id;
	}
	bad = v;
	bad_end = e;
	why = "no event";
	if (!events)
		goto refuse;
	hyp_layout.early_events = events;
	hyp_layout.early_size = kb << 10;
	return;

refuse:
	early_refuse(why, bad, bad_end);
}

/*
 * panic=N, as Linux reads it: N other than 0 (a timeout, or -1 for at
 * once) asks for a reset after a panic, which the hypervisor's own panic
 * then makes too (panic.c), so that the next boot shows its log; and the
 * test hook that makes such a panic before Linux runs.
 */
static void panic_from_bootargs(const char *args, int len)
{
	const char *v, *e;
	u64 n;

	if (find_bootarg(args, len, BOOTARG_PANIC, &v, &e)) {
		if (v < e && *v == '-')
			v++;
		hyp_layout.panic_reset = parse_decimal(&v, e, PANIC_MAX_DIGITS,
						       &n) && v == e && n;
	}
	if (!find_bootarg(args, len, BOOTARG_TEST_PANIC, &v, &e))
		return;
	if (!word_is(v, e, TEST_PANIC_BEFORE_LINUX))
		hyp_panic("malformed %s (want %s)", BOOTARG_TEST_PANIC,
			  TEST_PANIC_BEFORE_LINUX);
	hyp_layout.test_panic = true;
}

static void parse_chosen(void)
{
	int chosen = dt_tree_path("/chosen");
	const char *args;
	u64 size = 0;
	int len;

	hyp_layout.kernel = hyp_layout.hyp_base + HYP_REGION_SIZE;
	hyp_layout.carveout_size = HYP_CARVEOUT_DEFAULT;
	if (chosen < 0)
		return;

	get_u64_prop(chosen, CHOSEN_KERNEL, &hyp_layout.kernel);
	get_u64_prop(chosen, "linux,initrd-start", &initrd.start);
	get_u64_prop(chosen, "linux,initrd-end", &initrd.end);

	/* The kernel command line wins over the boot loader's property */
	get_u64_prop(chosen, CHOSEN_CARVEOUT_SIZE, &size);
	args = dt_tree_getprop(chosen, "bootargs", &len);
	if (args) {
		if (!carveout_from_bootargs(args, len, &size,
					    &hyp_layout.carveout_base))
			hyp_panic("malformed %s (want e.g. 64M or 64M@1536M, each below 2^64)",
				  BOOTARG_CARVEOUT);
		lose_cpu_on_from_bootargs(args, len, BOOTARG_LOSE_CPU_ON,
					  false);
		lose_cpu_on_from_bootargs(args, len, BOOTARG_STALL_CPU_ON,
					  true);
		early_from_bootargs(args, len);
		panic_from_bootargs(args, len);
		allow_debug_from_bootargs(args, len);
	}
	if (size) {
		if (size < SZ_2M || size & (SZ_2M - 1))
			hyp_panic("trace carve-out size 0x%lx: must be a multiple of 2 MiB",
				  size);
		hyp_layout.carveout_size = size;
	}
}

static void check_free(const char *what, u64 base, u64 size,
		       const void *fdt)
{
	u64 kernel_size = *(u64 *)(hyp_layout.kernel + 16);

	if (ranges_overlap(base, size, hyp_layout.hyp_base, HYP_REGION_SIZE) ||
	    ranges_overlap(base, size, hyp_layout.kernel, kernel_size) ||
	    ranges_overlap(base, size, (u64)fdt, fdt_totalsize(fdt)) ||
	    (initrd.end > initrd.start &&
	     ranges_overlap(base, size, initrd.start, initrd.end - initrd.start)))
		hyp_panic("%s at 0x%lx..0x%lx overlaps the hypervisor, kernel, initrd or device tree: load those lower (U-Boot: fdt_high, initrd_high), or give the guest more memory or a smaller carve-out",
			  what, base, base + size - 1);
}

/*
 * The carve-out goes at the top of the RAM bank that holds the hypervisor,
 * or where hyptrace.carveout=SIZE@BASE says (a boot loader that relocates
 * itself to the top of RAM, as U-Boot does, overwrites the last boot's
 * trace there: boot/README.md), Linux's copy of the device tree in the
 * 2 MiB block just below it.
 */
static void place_regions(const void *fdt)
{
	const struct mem_range *bank = NULL;
	u64 top;
	unsigned int i;

	for (i = 0; i < hyp_layout.nr_mem; i++) {
		const struct mem_range *m = &hyp_layout.mem[i];

		if (hyp_layout.hyp_base >= m->base &&
		    hyp_layout.hyp_base + HYP_REGION_SIZE <= m->base + m->size)
			bank = m;
	}
	if (!bank)
		hyp_panic("hypervisor at 0x%lx is not inside RAM",
			  hyp_layout.hyp_base);

	/* Sizes are compared with what is left, never added: no sum wraps */
	top = ALIGN_DOWN(bank->base + bank->size, SZ_2M);
	if (top - bank->base < 2 * SZ_2M ||
	    hyp_layout.carveout_size > top - bank->base - 2 * SZ_2M)
		hyp_panic("RAM too small for a 0x%lx-byte carve-out (bank 0x%lx..0x%lx)",
			  hyp_layout.carveout_size, bank->base, top - 1);
	if (!hyp_layout.carveout_base)
		hyp_layout.carveout_base = top - hyp_layout.carveout_size;
	else if (hyp_layout.carveout_base & (SZ_2M - 1) ||
		 hyp_layout.carveout_base < bank->base + SZ_2M ||
		 hyp_layout.carveout_base > top - hyp_layout.carveout_size)
		hyp_panic("%s base 0x%lx: the carve-out must start on 2 MiB, with 2 MiB of RAM below it, and end by 0x%lx",
			  BOOTARG_CARVEOUT, hyp_layout.carveout_base, top);
	hyp_layout.dtb_base = hyp_layout.carveout_base - SZ_2M;
	hyp_layout.dtb_room = min(fdt_totalsize(fdt) + DTB_EXTRA_ROOM,
				  DTB_MAX_SIZE);
	check_free("trace carve-out", hyp_layout.carveout_base,
		   hyp_layout.carveout_size, fdt);
	check_free("device-tree copy", hyp_layout.dtb_base, SZ_2M, fdt);
}

/*
 * Why the console at @u cannot be used although the device tree names it:
 * its registers in RAM or in the hypervisor's region (a wrong address: the
 * EL2 map has RAM there, and writes would land in memory), or beyond what
 * the EL2 map or the CPU can address. NULL if it can.
 */
static const char *console_clash(const struct uart *u)
{
	/* ID_AA64MMFR0_EL1.PARange: physical address bits */
	static const u8 pa_bits[] = { 32, 36, 40, 42, 44, 48, 52 };
	u64 parange = FIELD_GET(ID_AA64MMFR0_PARANGE,
				read_sysreg(id_aa64mmfr0_el1));
	u64 end = u->base + uart_span(u);
	unsigned int bits = HYP_EL2_VA_BITS, i;

	if (parange < ARRAY_SIZE(pa_bits))
		bits = min(bits, (unsigned int)pa_bits[parange]);
	if (end < u->base || end > 1UL << bits)
		return "its registers are beyond the addresses the hypervisor maps";
	for (i = 0; i < hyp_layout.nr_mem; i++)
		if (ranges_overlap(u->base, end - u->base, hyp_layout.mem[i].base,
			     hyp_layout.mem[i].size))
			return "its registers are in RAM";
	if (ranges_overlap(u->base, end - u->base, hyp_layout.hyp_base,
		     HYP_REGION_SIZE))
		return "its registers are in the hypervisor's region";
	return NULL;
}

/*
 * The console stdout-path names (dt_console.c), if it can be driven;
 * otherwise none, and one line in the log saying why.
 */
static void parse_console(void)
{
	struct dt_console c;
	const char *why = dt_console_find(&c);
	struct uart *u = &hyp_layout.console;
	char path[DT_PATH_MAX];

	/* The path without its options, for the line below */
	path[0] = '\0';
	if (c.path) {
		size_t n = min((size_t)c.path_len, sizeof(path) - 1);

		memcpy(path, c.path, n);
		path[n] = '\0';
	}
	if (!why)
		why = console_clash(&c.uart);
	if (why) {
		hyp_info("no console: stdout-path \"%s\" (%s): %s; this log only\n",
			 path, c.compatible ?: "no compatible", why);
		return;
	}
	*u = c.uart;
	uart_init(u);
	hyp_info("console: %s at 0x%lx, reg-shift %u, reg-io-width %u (stdout-path \"%s\")\n",
		 u->drv->name, u->base, u->reg_shift, u->io_width, path);
}

void dt_parse(const void *fdt)
{
	/* Until the device tree names a console, prints go to the log only */
	if (!fdt || dt_tree_check_header(fdt))
		hyp_panic("no valid device tree at %p (x0 at entry)", fdt);
	/* dt_tree.c and dt_copy.c read and write version 17 alone */
	if (fdt_version(fdt) < 17)
		hyp_panic("device tree version %u: the hypervisor reads version 17: rebuild it with dtc",
			  fdt_version(fdt));
	dt_tree_build(fdt);

	dt_parse_memory();
	parse_console();
	dt_parse_cpus();
	parse_chosen();
	if (*(u32 *)(hyp_layout.kernel + 56) != 0x644d5241)	/* "ARM\x64" */
		hyp_panic("no Linux Image at 0x%lx (set /chosen/%s)",
			  hyp_layout.kernel, CHOSEN_KERNEL);
	place_regions(fdt);
	dt_check_kept();
	dt_parse_debug_windows();
	dt_parse_mmio();
	dt_parse_scmi();
}

void dt_prepare_for_linux(const void *fdt)
{
	struct dt_copy copy = {
		.out = (void *)hyp_layout.dtb_base,
		.room = hyp_layout.dtb_room,
		.reserve = {
			{ "hyptrace-hyp", HYPTRACE_HYP_MEM_COMPATIBLE,
			  hyp_layout.hyp_base, HYP_REGION_SIZE },
			{ "hyptrace-trace", HYPTRACE_CARVEOUT_COMPATIBLE,
			  hyp_layout.carveout_base, hyp_layout.carveout_size },
		},
	};
	const char *why;

	if (hyp_layout.psci_local) {
		copy.psci_cpu = dt_cpu_for_psci;
		copy.keep_pages = spin_table_pages;
	}
	why = dt_copy_write(fdt, &copy);
	if (why)
		hyp_panic("Linux's copy of the device tree: %s", why);
	/* Linux reads it with its MMU and caches off */
	dcache_clean_range(hyp_layout.dtb_base,
			   hyp_layout.dtb_base + fdt_totalsize(copy.out));
}
