// SPDX-License-Identifier: GPL-2.0
/*
 * hyptrace agent -N: who may be served. Every connection must answer the
 * challenge (hyptrace/vtauth.h) before any order is read; the handshakes run
 * side by side (hyptrace/vtgate.h), so that a client that connects and says
 * nothing delays nobody. The ones that fail are refused, counted by kind
 * and said on stderr, a line each, at most SAY_MAX lines a minute so that
 * a flood of them cannot flood the log too (the rest are counted, and the
 * next line says how many).
 */
#include <stdio.h>

#include "agent.h"
#include "hyptrace/cmdline.h"
#include "hyptrace/mono_ms.h"

#define SUB		"agent"
#define AUTH_MS		5000	/* hyptrace listen answers at once */
#define SAY_WINDOW_MS	60000
#define SAY_MAX		10

/* @r happened: counted, and said unless too many were said this minute */
static void refused(void *ctx, enum vta_result r, const char *why)
{
	struct agent_auth *au = ctx;
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
	cmdline_err(SUB, "refused a client: %s (%s); refused so far: %lu wrong key, %lu no answer, %lu silent%s",
	       vtauth_result_name[r], why, au->refused[VTA_WRONG_KEY],
	       au->refused[VTA_NO_AUTH], au->refused[VTA_SILENT],
	       au->unsaid ? " (some not said: too many a minute)" : "");
	au->unsaid = 0;
}

int agent_auth_next(struct agent_auth *au, int listen_fd, int wait_ms)
{
	if (!au->gate_open) {
		vtgate_init(&au->gate, listen_fd, au->key, AUTH_MS, refused,
			    au);
		au->gate_open = true;
	}
	return vtgate_next(&au->gate, wait_ms);
}

void agent_auth_close(struct agent_auth *au, const char *why)
{
	if (au->gate_open)
		vtgate_close_all(&au->gate, why);
}

void agent_auth_summary(const struct agent_auth *au)
{
	unsigned long n = au->refused[VTA_WRONG_KEY] +
			  au->refused[VTA_NO_AUTH] + au->refused[VTA_SILENT];

	if (n)
		printf("hyptrace agent: refused %lu client%s: %lu wrong key, %lu no answer, %lu silent\n",
		       n, n == 1 ? "" : "s", au->refused[VTA_WRONG_KEY],
		       au->refused[VTA_NO_AUTH], au->refused[VTA_SILENT]);
}
