// SPDX-License-Identifier: GPL-2.0
/*
 * hyptrace agent -N: who may be served. Every connection must answer the
 * challenge (lib/vtauth.h) before any order is read; the ones that do
 * not are refused, counted by kind and said on stderr, a line each, at
 * most SAY_MAX lines a minute so that a flood of them cannot flood the
 * log too (the rest are counted, and the next line says how many).
 */
#include <stdio.h>

#include "agent.h"
#include "hyptrace.h"
#include "mono_ms.h"

#define SUB		"agent"
#define AUTH_MS		5000	/* hyptrace listen answers at once */
#define SAY_WINDOW_MS	60000
#define SAY_MAX		10

/* @r happened: counted, and said unless too many were said this minute */
static void refused(struct agent *a, enum vta_result r, const char *why)
{
	struct agent_auth *au = &a->auth;
	long long now = mono_ms();

	au->refused[r]++;
	if (now - au->window > SAY_WINDOW_MS) {
		au->window = now;
		au->said = 0;
	}
	if (au->said >= SAY_MAX) {
		au->unsaid++;
		return;
	}
	au->said++;
	ht_err(SUB, "refused a client: %s (%s); refused so far: %lu wrong key, %lu no answer, %lu silent%s",
	       vta_result_name[r], why, au->refused[VTA_WRONG_KEY],
	       au->refused[VTA_NO_AUTH], au->refused[VTA_SILENT],
	       au->unsaid ? " (some not said: too many a minute)" : "");
	au->unsaid = 0;
}

bool agent_auth_client(struct agent *a, int fd)
{
	enum vta_result r;
	char err[256];

	r = vta_serve(fd, a->auth.no_key ? NULL : &a->auth.key, AUTH_MS, err,
		      sizeof(err));
	if (r == VTA_OK)
		return true;
	refused(a, r, err);
	return false;
}

void agent_auth_summary(const struct agent *a)
{
	const struct agent_auth *au = &a->auth;
	unsigned long n = au->refused[VTA_WRONG_KEY] +
			  au->refused[VTA_NO_AUTH] + au->refused[VTA_SILENT];

	if (n)
		printf("hyptrace agent: refused %lu client%s: %lu wrong key, %lu no answer, %lu silent\n",
		       n, n == 1 ? "" : "s", au->refused[VTA_WRONG_KEY],
		       au->refused[VTA_NO_AUTH], au->refused[VTA_SILENT]);
}
