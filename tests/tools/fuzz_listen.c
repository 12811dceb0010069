// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the bytes `hyptrace listen -N` takes from an agent,
 * through the listener's own code (tools/hyptrace/listen/listen_store.c,
 * listen_meta.c, listen_net.c, listen_clock.c): messages cut out of the
 * stream in pieces of varying size, pages checked into their temporary
 * files within a small --max-size, the metadata kept within its limits,
 * and, when the stream leaves enough of it, the trace.dat written. Any
 * crash, leak or undefined behaviour is a finding; refusing is fine.
 * Seeds: gen_vtstream's whole rounds (make -C tests/tools seeds).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "listen.h"

static char dir[] = "/tmp/fuzz_listen.XXXXXX", output[64];

/* every run leaves the directory empty */
static void remove_dir(void)
{
	rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (!mkdtemp(dir))
		abort();
	atexit(remove_dir);
	snprintf(output, sizeof(output), "%s/trace.dat", dir);
	/* the listener's progress lines, not wanted here */
	if (!freopen("/dev/null", "w", stdout))
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct lst l;
	char err[512];
	size_t at = 0, step = 1;
	unsigned int i;
	int r = 0;

	memset(&l, 0, sizeof(l));
	l.dir = "fuzz:1";
	l.tp = &listen_net_transport;
	l.output = output;
	l.max_size = 8 * 4096;
	l.ctl = -1;
	for (i = 0; i < SOURCE_MAX_CPUS; i++)
		l.cpu[i].fd = l.cpu[i].tmp_fd = -1;
	if (listen_clock_init(&l, NULL))
		abort();
	/* pieces of 1, 2, 4, ... bytes: messages split at every point */
	while (at < size && !r) {
		ssize_t room = vtproto_room(&l.rd, err, sizeof(err));
		size_t n = size - at < step ? size - at : step;

		if (room < 0)
			break;
		if (n > (size_t)room)
			n = room;
		memcpy(l.rd.buf + l.rd.len, data + at, n);
		l.rd.len += n;
		at += n;
		step = step < 65536 ? step * 2 : 1;
		r = listen_meta_take_messages(&l, err, sizeof(err));
		if (r < 0 && (!err[0] || strchr(err, '\n'))) {
			/* an error is one line */
			fprintf(stderr, "not one line: '%s'\n", err);
			abort();
		}
	}
	if (!r) {
		listen_meta_write(&l, err, sizeof(err));
		unlink(output);
	}
	listen_store_close(&l);
	listen_meta_free(&l);
	return 0;
}
