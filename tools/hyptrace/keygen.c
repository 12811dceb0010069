// SPDX-License-Identifier: GPL-2.0
/*
 * hyptrace keygen FILE: a new shared key for `hyptrace agent -N --key`
 * and `hyptrace listen -N --key` (lib/vtauth.h): 32 random bytes as hex,
 * mode 0600, never over a file that exists.
 */
#include <stdio.h>
#include <string.h>

#include "hyptrace.h"
#include "vtauth.h"

#define SUB		"keygen"

static void usage(FILE *f)
{
	fprintf(f,
"usage: hyptrace keygen FILE\n"
"\n"
"Write a new key into FILE (created, mode 600; an existing FILE is left\n"
"alone): 32 random bytes from getrandom(2), as 64 hex digits and a\n"
"newline. Give the same file to `hyptrace agent -N ... --key FILE` on the\n"
"board and `hyptrace listen -N ... --key FILE` here (copy it over a\n"
"channel you trust, and keep it mode 600 there: the agent and the\n"
"listener refuse a key file that group or others may access).\n"
"\n"
"Exit status: 0 with FILE written; 1 if it could not be (one line says\n"
"why); 2 for a bad command line.\n");
}

int cmd_keygen(int argc, char **argv)
{
	char err[512];

	if (argc == 2 && (!strcmp(argv[1], "-h") ||
			  !strcmp(argv[1], "--help"))) {
		usage(stdout);
		return HT_EXIT_OK;
	}
	if (argc != 2 || argv[1][0] == '-') {
		usage(stderr);
		return HT_EXIT_USAGE;
	}
	if (vta_keygen(argv[1], err, sizeof(err))) {
		ht_err(SUB, "%s", err);
		return HT_EXIT_FAIL;
	}
	printf("hyptrace keygen: a new key in %s (mode 600)\n", argv[1]);
	return HT_EXIT_OK;
}
