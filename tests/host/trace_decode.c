// SPDX-License-Identifier: GPL-2.0
/*
 * trace_decode: read hyptrace's tracefs files and raw pages the way any
 * libtraceevent tool would, and print what they say.
 *
 *   trace_decode DIR
 *
 * DIR holds files copied out of the guest: header_page, and one
 * <event>.format per event (the remote's events/hypervisor/<event>/format),
 * and pages.hex ("<page id> <offset> <hex>" lines of one CPU's data pages).
 * Every format must parse without TEP_EVENT_FL_FAILED; then every event on
 * the pages is decoded with kbuffer and printed, sorted by time, as
 *
 *   <seconds>.<microseconds>: <name> <print fmt rendered by libtraceevent>
 *
 * which is the tail of the line the kernel's own trace file shows for it,
 * so that the caller can compare the two. Exit 1 on any parse failure.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>
#include <traceevent/kbuffer.h>
#include <traceevent/trace-seq.h>

#define PAGE_SIZE	4096
#define MAX_PAGES	1100
#define MAX_EVENTS	200000

struct decoded {
	unsigned long long ts;
	char *text;
};

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = calloc(1, n + 1);
	if (fread(buf, 1, n, f) != (size_t)n) {
		fclose(f);
		free(buf);
		return NULL;
	}
	fclose(f);
	*len = n;
	return buf;
}

static int parse_formats(struct tep_handle *tep, const char *dir)
{
	struct dirent *d;
	char path[4096];
	int n = 0, bad = 0;
	DIR *dp = opendir(dir);

	if (!dp)
		return -1;
	while ((d = readdir(dp))) {
		struct tep_event *ev;
		size_t len;
		char *buf;
		int err;

		if (!strstr(d->d_name, ".format"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		buf = slurp(path, &len);
		if (!buf) {
			printf("FAIL cannot read %s\n", path);
			bad++;
			continue;
		}
		err = tep_parse_event(tep, buf, len, "hypervisor");
		*strstr(d->d_name, ".format") = '\0';
		ev = tep_find_event_by_name(tep, "hypervisor", d->d_name);
		if (err || !ev || (ev->flags & TEP_EVENT_FL_FAILED)) {
			printf("FAIL format of %s does not parse (error %d)\n",
			       d->d_name, err);
			bad++;
		} else {
			printf("format %s: id %d, %d fields, parsed\n",
			       ev->name, ev->id, ev->format.nr_fields);
			n++;
		}
		free(buf);
	}
	closedir(dp);
	return bad ? -1 : n;
}

static int read_pages(const char *path, unsigned char (*pages)[PAGE_SIZE])
{
	FILE *f = fopen(path, "r");
	unsigned int id, off, i;
	char hex[256];
	int nr = 0;

	if (!f)
		return -1;
	while (fscanf(f, "%u %u %255s", &id, &off, hex) == 3) {
		if (id >= MAX_PAGES || off + strlen(hex) / 2 > PAGE_SIZE)
			return -1;
		for (i = 0; i < strlen(hex) / 2; i++)
			sscanf(hex + 2 * i, "%2hhx", &pages[id][off + i]);
		if (id + 1 > (unsigned int)nr)
			nr = id + 1;
	}
	fclose(f);
	return nr;
}

static int by_time(const void *a, const void *b)
{
	const struct decoded *x = a, *y = b;

	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

int main(int argc, char **argv)
{
	static unsigned char pages[MAX_PAGES][PAGE_SIZE];
	static struct decoded out[MAX_EVENTS];
	struct tep_handle *tep = tep_alloc();
	struct kbuffer *kbuf;
	char path[4096];
	int nr_pages, nr_formats, i, n = 0;
	size_t len;
	char *buf;

	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}
	tep_set_long_size(tep, 8);
	tep_set_page_size(tep, PAGE_SIZE);
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);

	snprintf(path, sizeof(path), "%s/header_page", argv[1]);
	buf = slurp(path, &len);
	if (!buf || tep_parse_header_page(tep, buf, len, 8)) {
		printf("FAIL header_page does not parse\n");
		return 1;
	}
	nr_formats = parse_formats(tep, argv[1]);
	if (nr_formats <= 0)
		return 1;

	snprintf(path, sizeof(path), "%s/pages.hex", argv[1]);
	nr_pages = read_pages(path, pages);
	if (nr_pages <= 0) {
		printf("FAIL no pages in %s\n", path);
		return 1;
	}

	kbuf = kbuffer_alloc(KBUFFER_LSIZE_8, KBUFFER_ENDIAN_LITTLE);
	for (i = 0; i < nr_pages; i++) {
		unsigned long long ts;
		void *data;

		/* Pages not written since load carry time_stamp ~0 */
		if (*(unsigned long long *)pages[i] == ~0ULL ||
		    kbuffer_load_subbuffer(kbuf, pages[i]) < 0)
			continue;
		for (data = kbuffer_read_event(kbuf, &ts); data && n < MAX_EVENTS;
		     data = kbuffer_next_event(kbuf, &ts)) {
			struct tep_record rec = {
				.ts = ts, .data = data,
				.size = kbuffer_event_size(kbuf),
			};
			struct tep_event *ev = tep_find_event_by_record(tep, &rec);
			struct trace_seq s;

			if (!ev) {
				printf("FAIL event id %d on page %d has no format\n",
				       tep_data_type(tep, &rec), i);
				return 1;
			}
			trace_seq_init(&s);
			trace_seq_printf(&s, "%llu.%06llu: ", ts / 1000000000ULL,
					 ts / 1000 % 1000000ULL);
			tep_print_event(tep, &s, &rec, "%s %s", TEP_PRINT_NAME,
					TEP_PRINT_INFO);
			trace_seq_terminate(&s);
			out[n].ts = ts;
			out[n].text = strdup(s.buffer);
			trace_seq_destroy(&s);
			n++;
		}
	}
	qsort(out, n, sizeof(out[0]), by_time);
	for (i = 0; i < n; i++)
		printf("event %s\n", out[i].text);
	printf("decoded %d events from %d pages with %d formats\n", n,
	       nr_pages, nr_formats);
	return 0;
}
