/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The constants of the trace.dat version 6 layout that the writer
 * (tracedat_write.c) and the reader (tracedat_read.c) share. The layout is
 * trace-cmd's Documentation/trace-cmd/trace-cmd.dat.v6.5.txt, plus what
 * that text leaves out: after the flyrecord CPU table, a file with a
 * TRACECLOCK option carries the clock text again as u64 size + text.
 */
#ifndef HYPTRACE_TOOLS_TRACEDAT_V6_H
#define HYPTRACE_TOOLS_TRACEDAT_V6_H

#define TD_MAGIC		"\x17\x08\x44tracing"
#define TD_MAGIC_LEN		10
#define TD_VERSION		"6"

#define TD_TAG_HEADER_PAGE	"header_page"	/* NUL included on file */
#define TD_TAG_HEADER_EVENT	"header_event"
#define TD_TAG_OPTIONS		"options  "	/* 10 bytes with the NUL */
#define TD_TAG_FLYRECORD	"flyrecord"
#define TD_TAG_LATENCY		"latency  "
#define TD_TAG_LEN		10

/* option ids (trace-cmd's enum tracecmd_file_options) */
#define TD_OPT_DONE		0
#define TD_OPT_DATE		1
#define TD_OPT_CPUSTAT		2
#define TD_OPT_BUFFER		3
#define TD_OPT_TRACECLOCK	4
#define TD_OPT_UNAME		5
#define TD_OPT_HOOK		6
#define TD_OPT_OFFSET		7
#define TD_OPT_CPUCOUNT		8
#define TD_OPT_VERSION		9
#define TD_OPT_TSC2NSEC		14	/* u32 mult, u32 shift, u64 offset */
#define TD_OPT_BUFFER_TEXT	22

/* bounds on what a file may claim, so a bad one cannot ask for too much */
#define TD_MIN_PAGE_SIZE	64U
#define TD_MAX_PAGE_SIZE	(1U << 24)
#define TD_MAX_CPUS		4096U

#endif /* HYPTRACE_TOOLS_TRACEDAT_V6_H */
