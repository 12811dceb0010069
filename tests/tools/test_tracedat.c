// SPDX-License-Identifier: GPL-2.0
/*
 * trace.dat writing and reading (tools/hyptrace/lib/tracedat_*.c): a file
 * written with tracedat_write() reads back record for record, merged by time;
 * then every truncation and thousands of single-byte changes of it must
 * give an error or records, never a crash or a read outside the file (run
 * under AddressSanitizer and UBSan); and the files the reader refuses are
 * refused with one line naming why.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>

#include "check.h"
#include "page_builder.h"
#include "hyp_events.h"
#include "mkdat.h"

static char err[512];

/* Two pages per CPU on 3 CPUs (CPU 1 without data), all three events */
static uint8_t pages[3][2][4096];

static void make_pages(void)
{
	struct hyp_event_hyp_enter en = { .hdr.id = HYP_EVENT_hyp_enter,
					  .reason = 1, .func_id = 0x84000000 };
	struct hyp_event_hyp_exit ex = { .hdr.id = HYP_EVENT_hyp_exit,
					 .reason = 1, .func_id = 0x84000000,
					 .ret = -1 };
	struct hyp_event_selftest st = { .hdr.id = HYP_EVENT_selftest };
	unsigned int cpu, pg, i;
	struct pb b;

	for (cpu = 0; cpu < 3; cpu += 2) {
		for (pg = 0; pg < 2; pg++) {
			pb_init(&b, 1000000000ULL + 3000000000ULL * pg + cpu);
			for (i = 0; i < 20; i++) {
				pb_data(&b, i ? 300 : 0, &en, sizeof(en), 0);
				pb_data(&b, 200, &ex, sizeof(ex), 0);
				st.id = i;
				pb_data(&b, 100, &st, sizeof(st), 1);
			}
			pb_extend(&b, 1ULL << 30);
			pb_data(&b, 0, &st, sizeof(st), 0);
			/* the second page follows lost events */
			pb_commit(&b, pg ? 3ULL << 30 : 0, 99);
			memcpy(pages[cpu][pg], b.page, 4096);
		}
	}
}

static uint8_t *sample(size_t *len)
{
	const void *p[3] = { pages[0], NULL, pages[2] };
	struct mkdat m = { .pages = p, .nr_cpus = 3, .nr_pages = 2,
			   .clock = "[boot]\n", .uname = "Linux t 7.3" };

	return mkdat(&m, len);
}

/* Read every record; the count, or -1 if the data was corrupt */
static long read_all(struct td_file *td, uint64_t *last_ts,
		     unsigned int *lost)
{
	struct td_record rec;
	char line[512];
	long n = 0;
	int r;

	*last_ts = 0;
	*lost = 0;
	while ((r = tracedat_next(td, &rec)) > 0) {
		if (rec.ts < *last_ts)
			return -2;
		*last_ts = rec.ts;
		*lost += rec.lost_before != 0;
		format_print_record(td, &rec, line, sizeof(line));
		n++;
	}
	return r < 0 ? -1 : n;
}

static int test_roundtrip(void)
{
	struct td_record rec;
	struct td_file *td;
	uint64_t last;
	unsigned int lost;
	size_t len;
	uint8_t *dat = sample(&len);

	td = tracedat_open_mem(dat, len, err, sizeof(err));
	CHECK(td, "%s", err);
	CHECK(tracedat_nr_cpus(td) == 3 && tracedat_page_size(td) == 4096, "geometry");
	CHECK(tracedat_trace_clock(td) && !strcmp(tracedat_trace_clock(td), "boot"),
	      "clock %s", tracedat_trace_clock(td));
	CHECK(tracedat_next(td, &rec) == 1 && rec.cpu == 0 &&
	      rec.ts == 1000000000ULL && rec.id == HYP_EVENT_hyp_enter,
	      "first record cpu %u ts %llu", rec.cpu,
	      (unsigned long long)rec.ts);
	CHECK(tracedat_next(td, &rec) == 1 && rec.cpu == 2, "then CPU 2");
	CHECK(read_all(td, &last, &lost) == 2 * 2 * 61 - 2, "count");
	CHECK(lost == 2, "lost marks %u", lost);
	CHECK(tracedat_next(td, &rec) == 0 && !tracedat_error(td), "stays at the end");
	tracedat_close(td);
	free(dat);
	return 0;
}

/* No prefix of the file may open: the last CPU's data reaches its end */
static int test_truncated(void)
{
	size_t len, i;
	uint8_t *dat = sample(&len);

	for (i = 0; i < len; i++) {
		uint8_t *cut = malloc(i ? i : 1);
		struct td_file *td;

		memcpy(cut, dat, i);
		err[0] = '\0';
		td = tracedat_open_mem(cut, i, err, sizeof(err));
		CHECK(!td, "opened when cut at %zu", i);
		CHECK(err[0] && !strchr(err, '\n'), "cut at %zu: '%s'", i,
		      err);
		free(cut);
	}
	free(dat);
	return 0;
}

/*
 * Every byte of the metadata and of one page, changed: the reader
 * must say yes or no, and go through the records it says yes to.
 */
static int test_flipped(void)
{
	static const uint8_t how[][2] = {	/* xor, or set */
		{ 0x01, 0 }, { 0x80, 0 }, { 0xff, 0 }, { 0, 0xff },
	};
	size_t len, i, k, refused = 0, tried = 0;
	uint8_t *dat = sample(&len);
	uint8_t *copy = malloc(len);
	uint64_t last;
	unsigned int lost;

	/* the metadata, then CPU 0's first page */
	for (i = 0; i < len && i < 8192; i++) {
		/* four ways in the metadata, two in the page */
		for (k = i < 4096 ? 0 : 2; k < 4; k++) {
			struct td_file *td;

			memcpy(copy, dat, len);
			copy[i] = how[k][1] ? how[k][1] : copy[i] ^ how[k][0];
			tried++;
			td = tracedat_open_mem(copy, len, err, sizeof(err));
			if (!td) {
				CHECK(err[0] && !strchr(err, '\n'),
				      "byte %zu: '%s'", i, err);
				refused++;
				continue;
			}
			if (read_all(td, &last, &lost) == -1) {
				CHECK(tracedat_error(td) &&
				      !strchr(tracedat_error(td), '\n'), "error");
				refused++;
			}
			tracedat_close(td);
		}
	}
	printf("  %zu changed files, %zu refused\n", tried, refused);
	free(copy);
	free(dat);
	return 0;
}

static size_t find_n(const uint8_t *dat, size_t len, const char *s,
		     size_t n)
{
	size_t i;

	for (i = 0; i + n <= len; i++) {
		if (!memcmp(dat + i, s, n))
			return i;
	}
	return 0;
}

static size_t find(const uint8_t *dat, size_t len, const char *s)
{
	return find_n(dat, len, s, strlen(s));
}

/* @dat with one edit at @at must be refused with a reason holding @why */
static int refused(const uint8_t *dat, size_t len, size_t at,
		   const void *edit, size_t n, const char *why)
{
	uint8_t *copy = malloc(len);
	struct td_file *td;

	memcpy(copy, dat, len);
	memcpy(copy + at, edit, n);
	td = tracedat_open_mem(copy, len, err, sizeof(err));
	free(copy);
	if (td) {
		tracedat_close(td);
		printf("  accepted a file with '%s' wrong\n", why);
		return 0;
	}
	if (!strstr(err, why)) {
		printf("  '%s' does not say '%s'\n", err, why);
		return 0;
	}
	return 1;
}

static int test_refused(void)
{
	size_t len, at;
	uint8_t *dat = sample(&len);
	const uint16_t buffer_opt = 3;
	const uint32_t big_page = 3000;

	CHECK(refused(dat, len, 0, "\x18", 1, "not a trace.dat"), "magic");
	CHECK(refused(dat, len, 10, "7", 1, "version 7"), "version");
	CHECK(refused(dat, len, 12, "\x01", 1, "big-endian"), "endian");
	CHECK(refused(dat, len, 14, &big_page, 4, "page size"), "page size");
	at = find(dat, len, "header_page");
	CHECK(refused(dat, len, at, "Header_page", 11, "header_page"),
	      "header_page tag");
	at = find(dat, len, "local_t commit;\toffset:8;\tsize:8");
	at += strlen("local_t commit;\toffset:8;\tsize:");
	CHECK(refused(dat, len, at, "4", 1, "64-bit"), "32-bit pages");
	at = find(dat, len, "ID: 2");
	CHECK(refused(dat, len, at, "ID: 1", 5, "share ID 1"), "same IDs");
	at = find(dat, len, "Linux t 7.3");
	CHECK(refused(dat, len, at - 6, &buffer_opt, 2, "instance"),
	      "buffer option");
	at = find(dat, len, "flyrecord");
	CHECK(refused(dat, len, at, "latency  ", 10, "latency"), "latency");
	free(dat);
	return 0;
}

static int test_open_errors(void)
{
	char dir[] = "/tmp/hyptrace-test-XXXXXX", path[600];
	struct td_file *td;
	int fd;

	CHECK(mkdtemp(dir), "mkdtemp");
	snprintf(path, sizeof(path), "%s/none.dat", dir);
	td = tracedat_open(path, err, sizeof(err));
	CHECK(!td && strstr(err, path) && strstr(err, strerror(ENOENT)),
	      "'%s'", err);
	td = tracedat_open(dir, err, sizeof(err));
	CHECK(!td && strstr(err, strerror(EISDIR)), "'%s'", err);
	fd = open(path, O_CREAT | O_WRONLY, 0644);
	CHECK(fd >= 0, "create");
	close(fd);
	td = tracedat_open(path, err, sizeof(err));
	CHECK(!td && strstr(err, "empty"), "'%s'", err);
	fd = open(path, O_WRONLY | O_TRUNC);
	CHECK(write(fd, "hello\n", 6) == 6, "write");
	close(fd);
	td = tracedat_open(path, err, sizeof(err));
	CHECK(!td && strstr(err, path) && strstr(err, "not a trace.dat"),
	      "'%s'", err);
	CHECK(!tracedat_open_mem("", 0, err, sizeof(err)), "empty memory");
	unlink(path);
	rmdir(dir);
	return 0;
}

static int test_write_errors(void)
{
	struct gen_text hp = gen_header_page(4096), he = gen_header_event();
	int fds[2] = { -1, -1 };
	struct td_out o = {
		.header_page = hp.text, .header_page_len = hp.len,
		.header_event = he.text, .header_event_len = he.len,
		.page_size = 4096, .nr_cpus = 2, .cpu_fd = fds,
	};
	FILE *out = tmpfile(), *cpu = tmpfile();

	CHECK(out && cpu, "tmpfile");
	o.page_size = 1000;
	CHECK(tracedat_write(fileno(out), &o, err, sizeof(err)) &&
	      strstr(err, "page size"), "'%s'", err);
	o.page_size = 4096;
	o.nr_cpus = 0;
	CHECK(tracedat_write(fileno(out), &o, err, sizeof(err)), "0 CPUs");
	o.nr_cpus = 2;
	CHECK(fwrite("0123456789", 10, 1, cpu) == 1 && !fflush(cpu), "cpu");
	fds[1] = fileno(cpu);
	CHECK(tracedat_write(fileno(out), &o, err, sizeof(err)) &&
	      strstr(err, "whole"), "'%s'", err);
	/* no data at all is a valid, empty trace */
	fds[1] = -1;
	CHECK(!tracedat_write(fileno(out), &o, err, sizeof(err)), "%s", err);
	fclose(out);
	fclose(cpu);
	free(hp.name);
	free(hp.text);
	free(he.name);
	free(he.text);
	return 0;
}

/* A clock that is not boot gets no TSC2NSEC; the name is the bracketed */
static int test_clocks(void)
{
	const void *p[1] = { pages[0] };
	struct mkdat m = { .pages = p, .nr_cpus = 1,
			   .clock = "local global [mono] boot\n" };
	struct td_record rec;
	struct td_file *td;
	size_t len;
	uint8_t *dat = mkdat(&m, &len);

	CHECK(!find_n(dat, len, "\x0e\x00\x10\x00\x00\x00", 6), "TSC2NSEC");
	td = tracedat_open_mem(dat, len, err, sizeof(err));
	CHECK(td && !strcmp(tracedat_trace_clock(td), "mono"), "clock");
	CHECK(tracedat_next(td, &rec) == 1 && rec.ts == 1000000000ULL, "ts");
	tracedat_close(td);
	free(dat);
	m.clock = "[boot]";
	dat = mkdat(&m, &len);
	CHECK(find_n(dat, len, "\x0e\x00\x10\x00\x00\x00\x01\x00\x00\x00",
		     10), "TSC2NSEC mult 1");
	td = tracedat_open_mem(dat, len, err, sizeof(err));
	CHECK(tracedat_next(td, &rec) == 1 && rec.ts == 1000000000ULL, "ts");
	tracedat_close(td);
	free(dat);
	return 0;
}

/* OFFSET (hyptrace listen --align) moves every stamp, both ways */
static int test_offset(void)
{
	const void *p[1] = { pages[0] };
	struct mkdat m = { .pages = p, .nr_cpus = 1, .clock = "[boot]",
			   .ts_offset = "-250000000" };
	struct td_record rec;
	struct td_file *td;
	size_t len;
	uint8_t *dat = mkdat(&m, &len);

	CHECK(find_n(dat, len, "\x07\x00\x0b\x00\x00\x00-250000000", 16),
	      "OFFSET option");
	td = tracedat_open_mem(dat, len, err, sizeof(err));
	CHECK(td, "%s", err);
	CHECK(tracedat_next(td, &rec) == 1 && rec.ts == 750000000ULL,
	      "ts %llu", (unsigned long long)rec.ts);
	tracedat_close(td);
	free(dat);
	m.ts_offset = "0x10";
	dat = mkdat(&m, &len);
	td = tracedat_open_mem(dat, len, err, sizeof(err));
	CHECK(td && tracedat_next(td, &rec) == 1 && rec.ts == 1000000016ULL,
	      "hex offset");
	tracedat_close(td);
	free(dat);
	m.ts_offset = "12 s";
	dat = mkdat(&m, &len);
	td = tracedat_open_mem(dat, len, err, sizeof(err));
	CHECK(!td && strstr(err, "OFFSET") && !strchr(err, '\n'),
	      "a bad OFFSET refused in one line: %s", err);
	free(dat);
	return 0;
}

/*
 * Two OFFSET options of INT64_MAX: their sum does not fit, and is refused
 * in one line (UBSan would end the test on the overflow). The second is
 * the UNAME option, of the same text, renamed in place.
 */
static int test_offset_sum(void)
{
	static const char max[] = "9223372036854775807";
	static const char uname_opt[] = "\x05\x00\x14\x00\x00\x00";
	const void *p[1] = { pages[0] };
	struct mkdat m = { .pages = p, .nr_cpus = 1, .clock = "[boot]",
			   .uname = max, .ts_offset = max };
	struct td_file *td;
	size_t len;
	uint8_t *dat = mkdat(&m, &len);
	size_t at = find_n(dat, len, uname_opt, 6);

	CHECK(at && !memcmp(dat + at + 6, max, sizeof(max)), "UNAME option");
	dat[at] = 7;	/* TD_OPT_OFFSET */
	td = tracedat_open_mem(dat, len, err, sizeof(err));
	CHECK(!td && strstr(err, "OFFSET") && !strchr(err, '\n'),
	      "two INT64_MAX OFFSETs refused in one line: %s", err);
	free(dat);
	return 0;
}

int main(void)
{
	make_pages();
	ck_run("tracedat: written and read back, merged by time",
	       test_roundtrip);
	ck_run("tracedat: every truncation refused", test_truncated);
	ck_run("tracedat: changed bytes never crash", test_flipped);
	ck_run("tracedat: unsupported files refused, saying why",
	       test_refused);
	ck_run("tracedat: open errors name the file", test_open_errors);
	ck_run("tracedat: tracedat_write refuses bad input", test_write_errors);
	ck_run("tracedat: trace clock and TSC2NSEC", test_clocks);
	ck_run("tracedat: OFFSET moves the timestamps", test_offset);
	ck_run("tracedat: OFFSETs that add up beyond 64 bits refused",
	       test_offset_sum);
	return ck_exit();
}
