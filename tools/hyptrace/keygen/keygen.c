// SPDX-License-Identifier: GPL-2.0
/*
 * hyptrace keygen FILE: a new shared key for `hyptrace agent -N --key`
 * and `hyptrace listen -N --key` (hyptrace/vtauth.h): 32 random bytes as hex,
 * mode 0600, never over a file that exists.
 */
#include <stdio.h>
#include <string.h>

#include "hyptrace/cmdline.h"
#include "hyptrace/help.h"
#include "subcommands.h"
#include "hyptrace/vtauth.h"

#define SUB		"keygen"

int cmd_keygen(int argc, char **argv)
{
	char err[512];

	if (argc == 2 && (!strcmp(argv[1], "-h") ||
			  !strcmp(argv[1], "--help"))) {
		help_usage(stdout, "keygen");
		return HT_EXIT_OK;
	}
	if (argc != 2 || argv[1][0] == '-') {
		help_usage(stderr, "keygen");
		return HT_EXIT_USAGE;
	}
	if (vtauth_keygen(argv[1], err, sizeof(err))) {
		cmdline_err(SUB, "%s", err);
		return HT_EXIT_FAIL;
	}
	printf("hyptrace keygen: a new key in %s (mode 600)\n", argv[1]);
	return HT_EXIT_OK;
}
