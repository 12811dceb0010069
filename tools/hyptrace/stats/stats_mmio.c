// SPDX-License-Identifier: GPL-2.0
/*
 * hyptrace stats: which device registers the host touched, how often, and
 * the mix of reads and writes (stats_mmio.h). A device is the 4 KiB page
 * of its registers, as the hypervisor traces pages; a register is an
 * address within it. Registers are kept sorted, found by binary search.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "stats_mmio.h"

#define MMIO_PAGE_MASK	(~(uint64_t)4095)

void stats_mmio_init(struct mmio_stats *m, const struct td_file *td)
{
	memset(m, 0, sizeof(*m));
	m->rd = tracedat_event_by_name(td, "hypervisor", "mmio_read");
	m->wr = tracedat_event_by_name(td, "hypervisor", "mmio_write");
	m->un = tracedat_event_by_name(td, "hypervisor", "mmio_unhandled");
	if (m->rd) {
		m->rd_addr = format_print_find_field(m->rd, "addr");
		m->rd_width = format_print_find_field(m->rd, "width");
	}
	if (m->wr) {
		m->wr_addr = format_print_find_field(m->wr, "addr");
		m->wr_width = format_print_find_field(m->wr, "width");
	}
	if (m->un)
		m->un_addr = format_print_find_field(m->un, "addr");
}

/* The register at @addr, added in order on first sight; NULL if no memory */
static struct mmio_reg *reg_at(struct mmio_stats *m, uint64_t addr)
{
	size_t lo = 0, hi = m->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->regs[mid].addr == addr)
			return &m->regs[mid];
		if (m->regs[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (m->nr == m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 64;
		struct mmio_reg *regs = realloc(m->regs, cap * sizeof(*regs));

		if (!regs)
			return NULL;
		m->regs = regs;
		m->cap = cap;
	}
	memmove(&m->regs[lo + 1], &m->regs[lo],
		(m->nr - lo) * sizeof(*m->regs));
	m->nr++;
	memset(&m->regs[lo], 0, sizeof(*m->regs));
	m->regs[lo].addr = addr;
	return &m->regs[lo];
}

/* log2 of a width of 1, 2, 4 or 8 bytes; 0 for anything else */
static unsigned int width_bit(uint64_t width)
{
	return width == 1 || width == 2 || width == 4 || width == 8 ?
	       1U << __builtin_ctzll(width) : 0;
}

int stats_mmio_feed(struct mmio_stats *m, const struct td_record *rec)
{
	const struct td_field *addr_f, *width_f = NULL;
	uint64_t addr = 0, width = 0;
	struct mmio_reg *r;

	if (m->rd && rec->id == m->rd->id) {
		addr_f = m->rd_addr;
		width_f = m->rd_width;
	} else if (m->wr && rec->id == m->wr->id) {
		addr_f = m->wr_addr;
		width_f = m->wr_width;
	} else if (m->un && rec->id == m->un->id) {
		addr_f = m->un_addr;
	} else {
		return 0;
	}
	/* A field the format lacks, or a short record: not counted */
	if (!addr_f || format_print_read_field(rec, addr_f, &addr) ||
	    (width_f && format_print_read_field(rec, width_f, &width)))
		return 0;
	r = reg_at(m, addr);
	if (!r)
		return -1;
	if (!width_f)
		r->unhandled++;
	else if (m->rd && rec->id == m->rd->id)
		r->reads++;
	else
		r->writes++;
	r->widths |= width_bit(width);
	return 0;
}

void stats_mmio_free(struct mmio_stats *m)
{
	free(m->regs);
	m->regs = NULL;
	m->nr = m->cap = 0;
}

/* The sums of the registers [@i, end of their page); returns that end */
static size_t device_sum(const struct mmio_stats *m, size_t i,
			 struct mmio_reg *sum)
{
	uint64_t page = m->regs[i].addr & MMIO_PAGE_MASK;

	memset(sum, 0, sizeof(*sum));
	sum->addr = page;
	for (; i < m->nr && (m->regs[i].addr & MMIO_PAGE_MASK) == page; i++) {
		sum->reads += m->regs[i].reads;
		sum->writes += m->regs[i].writes;
		sum->unhandled += m->regs[i].unhandled;
		sum->widths |= m->regs[i].widths;
	}
	return i;
}

static void widths_text(char *buf, unsigned int widths)
{
	unsigned int b;
	char *p = buf;

	*p = '\0';
	for (b = 0; b < 4; b++)
		if (widths & (1U << b))
			p += sprintf(p, "%s%u", p == buf ? "" : ",", 1U << b);
	if (p == buf)
		strcpy(buf, "-");
}

static double read_share(const struct mmio_reg *r)
{
	uint64_t n = r->reads + r->writes;

	return n ? 100.0 * (double)r->reads / (double)n : 0.0;
}

void stats_mmio_print_text(FILE *f, const struct mmio_stats *m)
{
	struct mmio_reg dev;
	char widths[16];
	size_t i, end;

	if (!m->nr)
		return;
	fprintf(f, "\nMMIO by device (4 KiB page) and register:\n");
	fprintf(f, "  %-24s %10s %10s %10s %7s  %s\n", "device / register",
		"reads", "writes", "unhandled", "read %", "widths");
	for (i = 0; i < m->nr; i = end) {
		end = device_sum(m, i, &dev);
		widths_text(widths, dev.widths);
		fprintf(f, "  0x%-22" PRIx64 " %10" PRIu64 " %10" PRIu64
			" %10" PRIu64 " %7.1f  %s\n", dev.addr, dev.reads,
			dev.writes, dev.unhandled, read_share(&dev), widths);
		for (; i < end; i++) {
			const struct mmio_reg *r = &m->regs[i];

			widths_text(widths, r->widths);
			fprintf(f, "    +0x%-19" PRIx64 " %10" PRIu64 " %10"
				PRIu64 " %10" PRIu64 " %7.1f  %s\n",
				r->addr - dev.addr, r->reads, r->writes,
				r->unhandled, read_share(r), widths);
		}
	}
}

static void json_reg(FILE *f, const char *key, const struct mmio_reg *r,
		     uint64_t val)
{
	unsigned int b, n = 0;

	fprintf(f, "\"%s\": %" PRIu64 ", \"reads\": %" PRIu64
		", \"writes\": %" PRIu64 ", \"unhandled\": %" PRIu64
		", \"widths\": [", key, val, r->reads, r->writes, r->unhandled);
	for (b = 0; b < 4; b++)
		if (r->widths & (1U << b))
			fprintf(f, "%s%u", n++ ? ", " : "", 1U << b);
	fprintf(f, "]");
}

void stats_mmio_print_json(FILE *f, const struct mmio_stats *m)
{
	struct mmio_reg dev;
	size_t i, end, first;

	if (!m->nr)
		return;
	fprintf(f, ",\n  \"mmio\": [");
	for (i = 0; i < m->nr; i = end) {
		first = i;
		end = device_sum(m, i, &dev);
		fprintf(f, "%s\n    {", first ? "," : "");
		json_reg(f, "base", &dev, dev.addr);
		fprintf(f, ", \"registers\": [");
		for (; i < end; i++) {
			fprintf(f, "%s\n      {", i > first ? "," : "");
			json_reg(f, "offset", &m->regs[i],
				 m->regs[i].addr - dev.addr);
			fprintf(f, "}");
		}
		fprintf(f, "\n    ]}");
	}
	fprintf(f, "\n  ]");
}
