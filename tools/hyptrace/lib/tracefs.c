// SPDX-License-Identifier: GPL-2.0
/*
 * tracefs control files, read and written whole. tracefs files report their
 * size as 0, so reads go until end of file rather than by stat().
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hyptrace/tracefs.h"

int tracefs_write(const char *dir, const char *file, const char *val,
	      char *err, size_t errlen)
{
	char path[PATH_MAX];
	size_t len = strlen(val);
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "cannot open %s: %s", path,
			 strerror(errno));
		return -1;
	}
	n = write(fd, val, len);
	if (n != (ssize_t)len) {
		snprintf(err, errlen, "writing '%s' to %s: %s", val, path,
			 n < 0 ? strerror(errno) : "short write");
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

int tracefs_read(const char *dir, const char *file, struct tfs_text *out,
	     char *err, size_t errlen)
{
	char path[PATH_MAX];
	size_t cap = 4096, len = 0;
	char *buf;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "cannot open %s: %s", path,
			 strerror(errno));
		return -1;
	}
	buf = malloc(cap + 1);
	while (buf) {
		n = read(fd, buf + len, cap - len);
		if (n <= 0) {
			if (n < 0) {
				snprintf(err, errlen, "reading %s: %s", path,
					 strerror(errno));
				free(buf);
				close(fd);
				return -1;
			}
			break;
		}
		len += n;
		if (len == cap) {
			char *more = realloc(buf, 2 * cap + 1);

			if (!more) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = more;
			cap *= 2;
		}
	}
	close(fd);
	if (!buf) {
		snprintf(err, errlen, "reading %s: out of memory", path);
		return -1;
	}
	buf[len] = '\0';
	out->text = buf;
	out->len = len;
	return 0;
}

unsigned long long tracefs_stat(const char *dir, const char *file,
			    const char *key)
{
	struct tfs_text t;
	unsigned long long val = 0;
	size_t klen = strlen(key);
	char err[256];
	char *line;

	if (tracefs_read(dir, file, &t, err, sizeof(err)))
		return 0;
	for (line = t.text; line && *line; line = strchr(line, '\n')) {
		if (*line == '\n')
			line++;
		if (!strncmp(line, key, klen) && line[klen] == ':') {
			val = strtoull(line + klen + 1, NULL, 10);
			break;
		}
	}
	free(t.text);
	return val;
}

int tracefs_exists(const char *dir, const char *file)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	return access(path, F_OK) == 0;
}

const char *tracefs_hyp_dir(void)
{
	if (tracefs_exists(TRACEFS_HYP_REMOTE, "tracing_on"))
		return TRACEFS_HYP_REMOTE;
	if (tracefs_exists(DEBUGFS_HYP, "tracing_on"))
		return DEBUGFS_HYP;
	return NULL;
}

/* @dir holds a last boot not given back: its release file reads 0 */
static int last_boot_kept(const char *dir)
{
	struct tfs_text t;
	char err[256];
	int kept;

	if (!tracefs_exists(dir, "trace_clock") ||
	    tracefs_read(dir, "release", &t, err, sizeof(err)))
		return 0;
	kept = t.len && t.text[0] == '0';
	free(t.text);
	return kept;
}

const char *tracefs_last_boot_dir(void)
{
	/* The directories stay after a release: trace_remote keeps them */
	if (last_boot_kept(TRACEFS_HYP_LAST_BOOT))
		return TRACEFS_HYP_LAST_BOOT;
	if (last_boot_kept(DEBUGFS_HYP_LAST_BOOT))
		return DEBUGFS_HYP_LAST_BOOT;
	return NULL;
}
