// SPDX-License-Identifier: GPL-2.0
/*
 * Format files and the text of records (tools/hyptrace/lib/format.c and
 * format_print.c): the hypervisor's formats as the module prints them,
 * kernel formats with arrays and dynamic strings, format files that lie,
 * and the exact lines format_print_record() gives, which must be the kernel's
 * trace_remote lines for the hypervisor's events.
 */
#include "check.h"
#include "page_builder.h"
#include "hyptrace/format.h"
#include "gen_formats.h"
#include "hyp_events.h"
#include "mkdat.h"

static char err[256];

static int test_hyp_formats(void)
{
	const char *want = "\"reason=%s func_id=0x%x ret=%lld\", "
		"__print_symbolic(REC->reason, { 1, \"hvc\" }";
	struct gen_text *gen;
	unsigned int nr = gen_event_formats(&gen), i;
	const struct td_field *f;
	struct fmt_event *fe;

	CHECK(nr == HYP_NR_EVENTS, "%u formats", nr);
	for (i = 0; i < nr; i++) {
		fe = format_parse("hypervisor", gen[i].text, gen[i].len, err,
			       sizeof(err));
		CHECK(fe, "%s: %s", gen[i].name, err);
		CHECK(!strcmp(fe->ev.name, gen[i].name), "name %s",
		      fe->ev.name);
		CHECK(fe->ev.id == i + 1 && fe->hyp == (int)i + 1, "id %u",
		      fe->ev.id);
		CHECK(!strcmp(fe->ev.fields[0].name, "common_type") &&
		      fe->ev.fields[0].size == 2, "common_type");
		if (!strcmp(fe->ev.name, "hyp_exit")) {
			CHECK(fe->ev.nr_fields == 4, "%u fields",
			      fe->ev.nr_fields);
			f = format_print_find_field(&fe->ev, "ret");
			CHECK(f && f->offset == 8 && f->size == 8 &&
			      f->is_signed, "ret field");
			f = format_print_find_field(&fe->ev, "func_id");
			CHECK(f && f->offset == 4 && f->size == 4 &&
			      !f->is_signed, "func_id field");
			CHECK(!strncmp(fe->ev.print_fmt, want, strlen(want)),
			      "print fmt %s", fe->ev.print_fmt);
		}
		format_free(fe);
		free(gen[i].name);
		free(gen[i].text);
	}
	free(gen);
	/* the same names in another system are not ours */
	CHECK(!format_hyp_index("kvm", "hyp_enter"), "system checked");
	return 0;
}

static const char sched_switch[] =
	"name: sched_switch\nID: 316\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:__data_loc char[] name;\toffset:28;\tsize:4;\tsigned:0;\n"
	"\tfield:u8 raw[3];\toffset:32;\tsize:3;\tsigned:0;\n"
	"\tfield:__rel_loc u8[] blob;\toffset:36;\tsize:4;\tsigned:0;\n\n"
	"print fmt: \"prev_comm=%s prev_pid=%d\", REC->prev_comm, REC->prev_pid\n";

static int test_kernel_format(void)
{
	struct fmt_event *fe = format_parse("sched", sched_switch,
					 strlen(sched_switch), err,
					 sizeof(err));

	CHECK(fe, "%s", err);
	CHECK(fe->ev.id == 316 && fe->ev.nr_fields == 9, "id %u, %u fields",
	      fe->ev.id, fe->ev.nr_fields);
	CHECK(!strcmp(fe->ev.fields[4].name, "prev_comm") &&
	      fe->kinds[4] == FMT_STR, "char array");
	CHECK(fe->kinds[5] == FMT_NUM && fe->ev.fields[5].is_signed, "pid");
	CHECK(!strcmp(fe->ev.fields[6].name, "name") &&
	      fe->kinds[6] == FMT_DYN_STR && !fe->rel[6], "data_loc");
	CHECK(fe->kinds[7] == FMT_BYTES, "u8 raw[3]");
	CHECK(fe->kinds[8] == FMT_DYN_BYTES && fe->rel[8], "rel_loc");
	CHECK(!fe->hyp, "not ours");
	format_free(fe);
	return 0;
}

static int test_bad_formats(void)
{
	static const char *const bad[] = {
		"ID: 1\nformat:\nprint fmt: \"\"\n",
		"name: a\nformat:\nprint fmt: \"\"\n",
		"name: a\nID: 70000\nformat:\nprint fmt: \"\"\n",
		"name: a\nID: x1\nformat:\nprint fmt: \"\"\n",
		"name: a\nID: 1\nprint fmt: \"\"\n",
		"name: a\nID: 1\nformat:\n",
		"name: a\nID: 1\nformat:\n\tfield:int x;\tsize:4;\n"
			"print fmt: \"\"\n",
		"name: a\nID: 1\nformat:\n\tfield:int x;\toffset:99999999;"
			"\tsize:4;\nprint fmt: \"\"\n",
		"name: a\nID: 1\nformat:\n\tfield:int ;\toffset:0;\tsize:4;\n"
			"print fmt: \"\"\n",
		"name: a\nID: 1\nformat:\n\tfield:char x];\toffset:0;"
			"\tsize:4;\nprint fmt: \"\"\n",
		"name: a\nID: 1\nformat:\n\tfield:int x\toffset:0;\tsize:4;\n"
			"print fmt: \"\"\n",
		"name: a\nID: 1\nformat:\n\tfield:__data_loc char[] s;"
			"\toffset:0;\tsize:8;\nprint fmt: \"\"\n",
		"name: a\nID: 1\nsurprise\nformat:\nprint fmt: \"\"\n",
		"name: \nID: 1\nformat:\nprint fmt: \"\"\n",
		"",
	};
	const char nul[] = "name: a\0\nID: 1\nformat:\nprint fmt: \"\"\n";
	const char *minimal = "name: a\nID: 1\nformat:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;"
		"\tsigned:0;\n\nprint fmt: \"x\"\n";
	struct fmt_event *fe;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		fe = format_parse("s", bad[i], strlen(bad[i]), err, sizeof(err));
		CHECK(!fe && err[0], "bad format %zu accepted", i);
	}
	fe = format_parse("s", nul, sizeof(nul) - 1, err, sizeof(err));
	CHECK(!fe, "a NUL byte accepted");
	/* a format with no fields but common_type is fine */
	fe = format_parse("s", minimal, strlen(minimal), err, sizeof(err));
	CHECK(fe && fe->ev.nr_fields == 1, "minimal format: %s", err);
	format_free(fe);
	return 0;
}

/* One page of records of all three events, at known times */
static void hyp_page(struct pb *b, uint64_t ts0)
{
	struct hyp_event_hyp_enter en = {
		.hdr.id = HYP_EVENT_hyp_enter, .reason = HYP_REASON_HVC,
		.func_id = 0x84000000,
	};
	struct hyp_event_hyp_exit ex = {
		.hdr.id = HYP_EVENT_hyp_exit, .reason = HYP_REASON_SMC,
		.func_id = 0xc4000003, .ret = 0,
	};
	struct hyp_event_selftest st = { .hdr.id = HYP_EVENT_selftest,
					 .id = 5 };
	uint16_t unknown[4] = { 77, 1, 2, 3 };

	pb_init(b, ts0);
	pb_data(b, 0, &en, sizeof(en), 0);
	pb_data(b, 1000, &ex, sizeof(ex), 0);
	ex.ret = -22;
	ex.reason = 9;
	pb_data(b, 1000, &ex, sizeof(ex), 0);
	pb_data(b, 1000, &st, sizeof(st), 1);
	en.reason = HYP_REASON_TRAP;
	en.func_id = 0;
	pb_extend(b, 3000000000ULL);
	pb_data(b, 0, &en, sizeof(en), 0);
	pb_data(b, 5, unknown, sizeof(unknown), 0);
	pb_commit(b, 3ULL << 30, 17);
}

static int test_hyp_lines(void)
{
	static const char *const want[] = {
		"CPU:1 [LOST 17 EVENTS]",
		"[001]\t   12.345678: hyp_enter reason=hvc func_id=0x84000000",
		"[001]\t   12.345679: hyp_exit reason=smc func_id=0xc4000003 ret=0",
		"[001]\t   12.345680: hyp_exit reason=0x9 func_id=0xc4000003 ret=-22",
		"[001]\t   12.345681: selftest id=5",
		"[001]\t   15.345681: hyp_enter reason=trap func_id=0x0",
		"[001]\t   15.345681: UNKNOWN id=77",
	};
	struct pb b;
	const void *pages[2] = { NULL, b.page };
	struct mkdat m = { .pages = pages, .nr_cpus = 2, .clock = "[boot]" };
	struct td_record rec;
	struct td_file *td;
	unsigned int n = 0;
	char line[256];
	uint8_t *dat;
	size_t len;
	int r;

	hyp_page(&b, 12345678901ULL);
	dat = mkdat(&m, &len);
	td = tracedat_open_mem(dat, len, err, sizeof(err));
	CHECK(td, "%s", err);
	while ((r = tracedat_next(td, &rec)) > 0) {
		if (rec.lost_before) {
			format_print_lost(rec.cpu, rec.lost_before, line,
				       sizeof(line));
			CHECK(n < 7 && !strcmp(line, want[n]), "line %u '%s'",
			      n, line);
			n++;
		}
		format_print_record(td, &rec, line, sizeof(line));
		CHECK(n < 7 && !strcmp(line, want[n]), "line %u '%s'", n,
		      line);
		n++;
	}
	CHECK(r == 0 && n == 7, "r %d, %u lines: %s", r, n,
	      tracedat_error(td) ? tracedat_error(td) : "");
	tracedat_close(td);
	free(dat);
	return 0;
}

/* hyp_enter described without func_id: printed from the file's fields */
static int test_fallback_and_generic(void)
{
	static const char enter[] =
		"name: hyp_enter\nID: 1\nformat:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n\n"
		"\tfield:u16 reason;\toffset:2;\tsize:2;\tsigned:0;\n\n"
		"print fmt: \"reason=%d\", REC->reason\n";
	static const char other[] =
		"name: foo\nID: 2\nformat:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n\n"
		"\tfield:u8 a;\toffset:2;\tsize:1;\tsigned:0;\n"
		"\tfield:s8 b;\toffset:3;\tsize:1;\tsigned:1;\n"
		"\tfield:char s[6];\toffset:4;\tsize:6;\tsigned:0;\n"
		"\tfield:__data_loc char[] d;\toffset:10;\tsize:4;\tsigned:0;\n"
		"\tfield:u8 x[2];\toffset:14;\tsize:2;\tsigned:0;\n"
		"\tfield:u64 far;\toffset:40;\tsize:8;\tsigned:0;\n\n"
		"print fmt: \"a=%d\", REC->a\n";
	const struct td_out_format fmts[] = {
		{ "hypervisor", enter, sizeof(enter) - 1 },
		{ "other", other, sizeof(other) - 1 },
	};
	uint8_t p1[8] = { 1, 0, 5, 0, 0, 0, 0x84, 0 };
	uint8_t p2[20] = { 2, 0, 7, 0xfb, 'h', 'i', 0, 'x', 'x', 'x',
			   16, 0, 3, 0, 0xab, 0xcd, 'd', 'y', 'n', 0 };
	struct pb b;
	const void *pages[1] = { b.page };
	struct mkdat m = { .formats = fmts, .nr_formats = 2, .pages = pages,
			   .nr_cpus = 1 };
	struct td_record rec;
	struct td_file *td;
	char line[256];
	uint8_t *dat;
	size_t len;

	pb_init(&b, 1000);
	pb_data(&b, 0, p1, sizeof(p1), 0);
	pb_data(&b, 0, p2, sizeof(p2), 0);
	pb_commit(&b, 0, 0);
	dat = mkdat(&m, &len);
	td = tracedat_open_mem(dat, len, err, sizeof(err));
	CHECK(td, "%s", err);
	CHECK(!tracedat_trace_clock(td), "no clock");
	CHECK(tracedat_next(td, &rec) == 1, "first");
	format_print_record(td, &rec, line, sizeof(line));
	CHECK(!strcmp(line, "[000]\t    0.000001: hyp_enter reason=5"),
	      "'%s'", line);
	CHECK(tracedat_next(td, &rec) == 1, "second");
	format_print_record(td, &rec, line, sizeof(line));
	CHECK(!strcmp(line, "[000]\t    0.000001: foo a=7 b=-5 s=hi d=dyn x=abcd far=?"),
	      "'%s'", line);
	CHECK(tracedat_next(td, &rec) == 0, "end");
	tracedat_close(td);
	free(dat);
	return 0;
}

static int test_buffers_and_fields(void)
{
	struct pb b;
	const void *pages[1] = { b.page };
	struct mkdat m = { .pages = pages, .nr_cpus = 1 };
	const struct td_event *ev;
	const struct td_field *f;
	struct td_field odd;
	struct td_record rec;
	struct td_file *td;
	char small[10];
	uint8_t *dat;
	uint64_t v;
	size_t len;
	int n;

	hyp_page(&b, 12345678901ULL);
	dat = mkdat(&m, &len);
	td = tracedat_open_mem(dat, len, err, sizeof(err));
	CHECK(td, "%s", err);
	CHECK(tracedat_next(td, &rec) == 1 && tracedat_next(td, &rec) == 1 &&
	      tracedat_next(td, &rec) == 1, "third record");
	n = format_print_record(td, &rec, small, sizeof(small));
	CHECK(n == (int)strlen("[000]\t   12.345680: hyp_exit reason=0x9 func_id=0xc4000003 ret=-22"),
	      "length %d", n);
	CHECK(!strcmp(small, "[000]\t   "), "'%s'", small);
	CHECK(format_print_record(td, &rec, NULL, 0) == n, "NULL buffer");

	ev = tracedat_event_by_id(td, rec.id);
	CHECK(ev && ev == tracedat_event_by_name(td, "hypervisor", "hyp_exit"),
	      "by id and name");
	CHECK(!tracedat_event_by_name(td, "hypervisor", "nope"), "no such name");
	f = format_print_find_field(ev, "ret");
	CHECK(f && !format_print_read_field(&rec, f, &v) && (int64_t)v == -22,
	      "ret %lld", (long long)v);
	odd = *f;
	odd.offset = rec.size - 4;
	CHECK(format_print_read_field(&rec, &odd, &v) == -1 && v == 0, "outside");
	odd.offset = 0;
	odd.size = 3;
	CHECK(format_print_read_field(&rec, &odd, &v) == -1, "size 3");
	odd.size = 2;
	odd.offset = 2;
	odd.is_signed = 1;
	CHECK(!format_print_read_field(&rec, &odd, &v) && v == 9, "reason 9");

	format_print_lost(3, TD_LOST_UNKNOWN, small, sizeof(small));
	CHECK(!strcmp(small, "CPU:3 [LO"), "'%s'", small);
	tracedat_close(td);
	free(dat);
	return 0;
}

int main(void)
{
	ck_run("format: the hypervisor's format files", test_hyp_formats);
	ck_run("format: kernel formats, arrays, dynamic fields",
	       test_kernel_format);
	ck_run("format: lying format files refused", test_bad_formats);
	ck_run("print: trace_remote's lines for every event",
	       test_hyp_lines);
	ck_run("print: fallback and generic events",
	       test_fallback_and_generic);
	ck_run("print: short buffers, fields by name", test_buffers_and_fields);
	return ck_exit();
}
