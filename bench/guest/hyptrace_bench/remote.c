// SPDX-License-Identifier: GPL-2.0
/*
 * hyptrace-bench The trace remotes of /sys/kernel/tracing/remotes/: configure one, write
 * its write_event file.
 */
#include "bench.h"

#define REMOTES_DIR		"/sys/kernel/tracing/remotes"

void remote_open(struct remote *r, const char *name)
{
	struct stat st;

	r->name = name;
	snprintf(r->dir, sizeof(r->dir), REMOTES_DIR "/%s", name);
	if (stat(r->dir, &st))
		die("no remote \"%s\": %s: %s%s", name, r->dir, strerror(errno),
		    strcmp(name, "test") ? "" :
		    " (insmod remote_test.ko first)");
}

void remote_path(const struct remote *r, const char *file, char *buf,
		 size_t size)
{
	if (snprintf(buf, size, "%s/%s", r->dir, file) >= (int)size)
		die("path too long: %s/%s", r->dir, file);
}

void __printf(3, 4)
remote_write(const struct remote *r, const char *file, const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;

	remote_path(r, file, path, sizeof(path));
	va_start(ap, fmt);
	vwrite_file(path, fmt, ap);
	va_end(ap);
}

/* Each remote has its own event group directory (hypervisor/, test/). */
static void remote_enable_event(const struct remote *r, const char *event)
{
	char pattern[PATH_MAX];
	glob_t found;

	if (snprintf(pattern, sizeof(pattern), "%s/events/*/%s/enable",
		     r->dir, event) >= (int)sizeof(pattern))
		die("event name too long: %s", event);
	if (glob(pattern, 0, NULL, &found) || found.gl_pathc != 1)
		die("no event \"%s\" in remote %s: %s: %s", event, r->name,
		    pattern, strerror(ENOENT));
	write_file(found.gl_pathv[0], "1\n");
	globfree(&found);
}

static bool events_none(const char *events)
{
	return !strcmp(events, "none");
}

/*
 * Start the remote from a clean state: tracing off, an empty buffer of
 * @kb KiB per CPU (0 keeps the current size), only the comma-separated
 * @events enabled, and tracing on unless @events is "none". The size is set
 * while tracing is off and the buffer empty, when the remote takes it.
 */
void remote_configure(const struct remote *r, unsigned long kb,
		      const char *events)
{
	char list[256];
	char *save;
	char *ev;

	remote_write(r, "tracing_on", "0\n");
	remote_write(r, "trace", "0\n");
	if (kb)
		remote_write(r, "buffer_size_kb", "%lu\n", kb);
	remote_write(r, "events/enable", "0\n");
	if (events_none(events))
		return;

	if (snprintf(list, sizeof(list), "%s", events) >= (int)sizeof(list))
		die("event list too long: %s", events);
	for (ev = strtok_r(list, ",", &save); ev;
	     ev = strtok_r(NULL, ",", &save))
		remote_enable_event(r, ev);
	remote_write(r, "tracing_on", "1\n");
}

void remote_stop(const struct remote *r)
{
	remote_write(r, "tracing_on", "0\n");
}

int remote_open_write_event(const struct remote *r)
{
	char path[PATH_MAX];
	int fd;

	remote_path(r, "write_event", path, sizeof(path));
	/* Not for the readers and recorders we start */
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		die("cannot open %s: %s", path, strerror(errno));
	return fd;
}
