/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace.dat, the file trace-cmd, KernelShark and libtracecmd read: writing
 * one from raw ring-buffer pages, and reading one back record by record.
 *
 * We write version 6 (trace-cmd's Documentation/trace-cmd/trace-cmd.dat.v6
 * layout): the oldest layout every reader still takes, KernelShark's
 * included. The reader takes what this writer produces and the v6 files
 * trace-cmd itself writes for a single (top) buffer; anything else is
 * refused with one line saying why.
 */
#ifndef HYPTRACE_TOOLS_TRACEDAT_H
#define HYPTRACE_TOOLS_TRACEDAT_H

#include <stddef.h>
#include <stdint.h>

/* ---- writing ---- */

/* One events/<system>/<event>/format file, as tracefs printed it. */
struct td_out_format {
	const char *system;
	const char *text;
	size_t len;
};

struct td_out {
	const char *header_page;	/* events/header_page, as printed */
	size_t header_page_len;
	const char *header_event;	/* events/header_event */
	size_t header_event_len;
	const struct td_out_format *formats;
	unsigned int nr_formats;
	const char *kallsyms;		/* may be NULL */
	size_t kallsyms_len;
	const char *printk_formats;	/* may be NULL */
	size_t printk_formats_len;
	const char *cmdlines;		/* saved_cmdlines, may be NULL */
	size_t cmdlines_len;
	unsigned int page_size;		/* bytes per ring-buffer page */
	unsigned int nr_cpus;
	const int *cpu_fd;		/* per CPU: whole pages from offset 0, or -1 */
	const char *trace_clock;	/* TRACECLOCK option text, or NULL */
	const char *uname;		/* UNAME option text, or NULL */
	/*
	 * OFFSET option text, or NULL: signed ns that trace-cmd report
	 * (and tracedat_next()) add to every timestamp, to show the trace on
	 * another clock (hyptrace listen --align)
	 */
	const char *ts_offset;
	/*
	 * Per CPU, its buffer statistics as trace-cmd keeps them (a CPUSTAT
	 * option each, "CPU: N" then the stats file; `trace-cmd report
	 * --stat` prints them), or NULL.
	 */
	const char *const *cpustat;
};

/*
 * Write the trace.dat to @fd (positioned at 0, seekable). Returns 0, or -1
 * with a one-line reason in @err.
 */
int tracedat_write(int fd, const struct td_out *out, char *err, size_t errlen);

/*
 * The metadata alone: the bytes tracedat_write() puts before the flyrecord
 * section (header, formats, texts, CPU count, options), which is what
 * trace-cmd's network protocol carries ahead of the CPU data; whoever
 * receives it adds the flyrecord table and the pages. @out->cpu_fd is not
 * read. 0 with a malloc()ed *@meta of *@len bytes, or -1 with the reason.
 */
int tracedat_meta(const struct td_out *out, char **meta, size_t *len, char *err,
	    size_t errlen);

/* ---- reading ---- */

struct td_file;

/* A field of an event, from its format file. */
struct td_field {
	const char *name;
	unsigned int offset;	/* from the start of the payload (common_type) */
	unsigned int size;
	int is_signed;
};

struct td_event {
	uint16_t id;
	const char *system;
	const char *name;
	unsigned int nr_fields;		/* common fields included */
	const struct td_field *fields;
	const char *print_fmt;		/* the text after "print fmt: " */
};

struct td_record {
	unsigned int cpu;
	uint64_t ts;			/* trace clock, ns for the hypervisor */
	uint16_t id;			/* common_type */
	const uint8_t *data;		/* payload, common_type at 0 */
	uint32_t size;			/* payload bytes */
	/*
	 * Events this CPU lost just before this record, as the page header
	 * said: 0 none, TD_LOST_UNKNOWN when only the flag was set.
	 */
	uint64_t lost_before;
};

#define TD_LOST_UNKNOWN		UINT64_MAX

/* Open and check a trace.dat. NULL with a one-line reason in @err. */
struct td_file *tracedat_open(const char *path, char *err, size_t errlen);
void tracedat_close(struct td_file *td);

unsigned int tracedat_nr_cpus(const struct td_file *td);
unsigned int tracedat_page_size(const struct td_file *td);
const char *tracedat_trace_clock(const struct td_file *td);	/* NULL if none */

/*
 * The next record of all CPUs merged by timestamp (lower CPU first on a
 * tie). 1 with *@rec filled (valid until the next call), 0 at the end, -1
 * when the data is corrupt (tracedat_error() says where).
 */
int tracedat_next(struct td_file *td, struct td_record *rec);
const char *tracedat_error(const struct td_file *td);

const struct td_event *tracedat_event_by_id(const struct td_file *td, uint16_t id);
const struct td_event *tracedat_event_by_name(const struct td_file *td,
					const char *system, const char *name);
const struct td_field *format_print_find_field(const struct td_event *ev,
				     const char *name);
/* The field's value, sign-extended if signed; 0 if it lies outside @rec. */
int format_print_read_field(const struct td_record *rec, const struct td_field *f,
		  uint64_t *val);

/*
 * @rec as the tracefs `trace` file prints it, without the newline:
 * "[001]\t   12.345678: hyp_enter reason=hvc func_id=0x84000000".
 * Returns the length as snprintf() does.
 */
int format_print_record(const struct td_file *td, const struct td_record *rec,
		     char *buf, size_t len);

/*
 * Additions (report.c, tests and fuzzing):
 *
 * tracedat_open_mem() opens a trace.dat already in memory (@buf must stay valid
 * until tracedat_close()); otherwise as tracedat_open().
 *
 * format_print_lost() is the line trace_remote prints before a record whose
 * lost_before is not 0, without the newline: "CPU:2 [LOST 42 EVENTS]", or
 * "CPU:2 [LOST EVENTS]" for TD_LOST_UNKNOWN. Returns as snprintf() does.
 */
struct td_file *tracedat_open_mem(const void *buf, size_t len, char *err,
			    size_t errlen);
int format_print_lost(unsigned int cpu, uint64_t lost, char *buf, size_t len);

#endif /* HYPTRACE_TOOLS_TRACEDAT_H */
