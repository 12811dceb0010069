/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The shared key of `hyptrace agent -N` and `hyptrace listen -N`, and the
 * challenge-response that opens every TCP connection between them (the
 * protocol, version 3, is in vtproto.h). The MAC is HMAC-SHA256 from
 * libsodium (crypto_auth_hmacsha256_*), compared with its constant-time
 * crypto_verify_32(); the nonces come from getrandom(2).
 *
 * Anyone who can reach the agent's port could otherwise start and stop
 * tracing, read the trace (host kernel addresses in it) and hold the one
 * client slot. The key proves the client (and, the other way, the agent)
 * at the start of the connection; nothing after it is encrypted or
 * authenticated, so an attacker on the path can still read or change
 * the stream: use a network you trust, or a tunnel.
 */
#ifndef HYPTRACE_TOOLS_VTAUTH_H
#define HYPTRACE_TOOLS_VTAUTH_H

#include <stdbool.h>
#include <stddef.h>

#include "hyptrace/vtproto.h"

#define VTA_KEY_MIN	16	/* bytes; keygen writes 64 hex digits */
#define VTA_KEY_MAX	1024
#define VTA_NONCE	32
#define VTA_MAC		32
#define VTA_LINE_MAX	255	/* the client's "auth" line, newline included */

struct vta_key {
	unsigned char k[VTA_KEY_MAX];
	size_t len;
};

/*
 * The key options of both ends of -N (agent, listen), --key FILE and
 * --no-key: VTAUTH_LONGOPTS in the long options, whose getopt values are
 * VTAUTH_OPT_KEY and VTAUTH_OPT_NO_KEY.
 */
#define VTAUTH_OPT_KEY		'K'
#define VTAUTH_OPT_NO_KEY	'k'
#define VTAUTH_LONGOPTS \
	{ "key", required_argument, NULL, VTAUTH_OPT_KEY }, \
	{ "no-key", no_argument, NULL, VTAUTH_OPT_NO_KEY }

/*
 * @key (NULL if none) and @no_key as they must go with the transport: one
 * of them with -N (@net), neither without. 0, or -1 after one line (from
 * @sub; @no_key_use says what --no-key is for)
 */
int vtauth_check_options(const char *sub, bool net, const char *key,
			 bool no_key, const char *no_key_use);

/*
 * The key in @path: its bytes less one trailing newline, at least
 * VTA_KEY_MIN of them. The file must be a regular file (not through a
 * symlink), owned by this user, with no permission for group or others.
 */
int vtauth_load_key(const char *path, struct vta_key *key, char *err,
		 size_t errlen);

/* A new key file @path (mode 0600, never over an existing file) */
int vtauth_keygen(const char *path, char *err, size_t errlen);

/* Why the agent refused a connection (VTA_OK: it did not) */
enum vta_result {
	VTA_OK,
	VTA_WRONG_KEY,	/* an answer whose MAC is not the key's */
	VTA_NO_AUTH,	/* an order, an empty line, garbage, or gone */
	VTA_SILENT,	/* no answer within the time */
	VTA_NR_RESULTS,
	VTA_PENDING = VTA_NR_RESULTS,	/* vtauth_step(): not yet */
};

/* "wrong key" ... for the agent's lines */
extern const char *const vtauth_result_name[VTA_NR_RESULTS];

/*
 * The agent's end, on a new connection @fd (non-blocking): send the
 * challenge, read the answer within @timeout_ms, and send "auth_ok" (or
 * one "error" message). @key NULL (--no-key): the challenge says there is
 * no key and nothing is awaited. VTA_OK, or why not with a line in @err.
 */
enum vta_result vtauth_serve(int fd, const struct vta_key *key, int timeout_ms,
			  char *err, size_t errlen);

/*
 * The same in steps, so that one agent can have several handshakes under
 * way and none waits for another (vtgate.h): vtauth_start() sends the
 * challenge, vtauth_step() takes what has arrived of the answer whenever @fd
 * is readable, and once more after the deadline. Both answer VTA_PENDING
 * until the handshake is over either way; the key must outlive it.
 */
struct vta_pending {
	int fd;
	const struct vta_key *key;
	long long deadline;		/* mono_ms() */
	unsigned char na[VTA_NONCE];	/* the challenge's nonce */
	char line[VTA_LINE_MAX + 1];	/* the answer so far */
	size_t have;
};

enum vta_result vtauth_start(struct vta_pending *p, int fd,
			  const struct vta_key *key, int timeout_ms,
			  char *err, size_t errlen);
enum vta_result vtauth_step(struct vta_pending *p, char *err, size_t errlen);

/*
 * The client's end on @fd (non-blocking), reading with @rd (what comes
 * after the handshake stays in it): take the challenge, answer it, check
 * the agent's own MAC (so a fake agent is caught too). @key NULL
 * (--no-key): only an agent without a key is accepted. 0, or -1 with a
 * line in @err.
 */
int vtauth_answer(int fd, struct vt_reader *rd, const struct vta_key *key,
	       int timeout_ms, char *err, size_t errlen);

#endif /* HYPTRACE_TOOLS_VTAUTH_H */
