// SPDX-License-Identifier: GPL-2.0
/*
 * The key and the challenge-response of the TCP transport (vtauth.h).
 * The MACs bind the direction and the protocol version (a label each
 * side signs with) and both nonces: an answer recorded once fails on the
 * next connection, whose agent nonce differs, and an agent's proof
 * cannot be sent back as a client's.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "hyptrace/cmdline.h"
#include "hyptrace/errmsg.h"
#include "hyptrace/mono_ms.h"
#include "hyptrace/vtauth.h"

int vtauth_check_options(const char *sub, bool net, const char *key,
			 bool no_key, const char *no_key_use)
{
	if (!net && (key || no_key)) {
		cmdline_err(sub, "--key and --no-key go with -N: virtio-serial needs no key");
		return -1;
	}
	if (net && !key == !no_key) {
		cmdline_err(sub, "-N wants --key FILE (or --no-key %s)", no_key_use);
		return -1;
	}
	return 0;
}

#define HEX(n)		(2 * (n) + 1)
#define SEND_MS		1000
#define LABEL_CLIENT	"hyptrace-vt3 client\n"
#define LABEL_AGENT	"hyptrace-vt3 agent\n"

const char *const vtauth_result_name[VTA_NR_RESULTS] = {
	[VTA_OK] = "authenticated",
	[VTA_WRONG_KEY] = "wrong key",
	[VTA_NO_AUTH] = "no answer to the challenge",
	[VTA_SILENT] = "silent",
};

int vtauth_load_key(const char *path, struct vta_key *key, char *err,
		 size_t errlen)
{
	struct stat st;
	char more;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return errmsg(err, errlen, "key file %s: %s%s", path,
			      strerror(errno), errno == ELOOP ?
			      " (a symlink: give the file itself)" : "");
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return errmsg(err, errlen, "key file %s: not a regular file",
			      path);
	}
	if (st.st_uid != geteuid() || (st.st_mode & 077)) {
		close(fd);
		return errmsg(err, errlen,
			      "key file %s: mode %04o, owner %u: it must be yours alone (chmod 600)",
			      path, (unsigned int)(st.st_mode & 07777),
			      (unsigned int)st.st_uid);
	}
	n = read(fd, key->k, sizeof(key->k));
	if (n == (ssize_t)sizeof(key->k) && read(fd, &more, 1) > 0)
		n = -2;
	close(fd);
	if (n == -2)
		return errmsg(err, errlen, "key file %s: more than %u bytes",
			      path, VTA_KEY_MAX);
	if (n < 0)
		return errmsg(err, errlen, "key file %s: %s", path,
			      strerror(errno));
	if (n && key->k[n - 1] == '\n')
		n--;
	key->len = n;
	if (key->len < VTA_KEY_MIN) {
		sodium_memzero(key, sizeof(*key));
		return errmsg(err, errlen,
			      "key file %s: %zd bytes, fewer than %u (hyptrace keygen FILE makes one)",
			      path, n, VTA_KEY_MIN);
	}
	return 0;
}

/* Also the first libsodium call of every path: sodium_init() here */
static int random_bytes(unsigned char *p, size_t len, char *err,
			size_t errlen)
{
	if (sodium_init() < 0)
		return errmsg(err, errlen, "libsodium does not start");
	while (len) {
		ssize_t n = getrandom(p, len, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errmsg(err, errlen, "getrandom: %s",
				      strerror(errno));
		p += n;
		len -= n;
	}
	return 0;
}

int vtauth_keygen(const char *path, char *err, size_t errlen)
{
	unsigned char k[32];
	char hex[HEX(sizeof(k)) + 1];
	size_t len;
	int fd, ret = 0;

	if (random_bytes(k, sizeof(k), err, errlen))
		return -1;
	sodium_bin2hex(hex, sizeof(hex), k, sizeof(k));
	sodium_memzero(k, sizeof(k));
	len = strlen(hex);
	hex[len++] = '\n';
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		  0600);
	if (fd < 0) {
		ret = errmsg(err, errlen, "cannot create %s: %s", path,
			     strerror(errno));
	} else if (write(fd, hex, len) != (ssize_t)len || fsync(fd)) {
		ret = errmsg(err, errlen, "writing %s: %s", path,
			     strerror(errno));
		unlink(path);
	}
	if (fd >= 0)
		close(fd);
	sodium_memzero(hex, sizeof(hex));
	return ret;
}

/* HMAC-SHA256(key, @label || @na || @nc) */
static void mac(const struct vta_key *key, const char *label,
		const unsigned char *na, const unsigned char *nc,
		unsigned char *out)
{
	crypto_auth_hmacsha256_state st;

	crypto_auth_hmacsha256_init(&st, key->k, key->len);
	crypto_auth_hmacsha256_update(&st, (const unsigned char *)label,
				      strlen(label));
	crypto_auth_hmacsha256_update(&st, na, VTA_NONCE);
	crypto_auth_hmacsha256_update(&st, nc, VTA_NONCE);
	crypto_auth_hmacsha256_final(&st, out);
	sodium_memzero(&st, sizeof(st));
}

/* Exactly @len bytes from the hex digits @hex of @n characters */
static bool unhex(unsigned char *bin, size_t len, const char *hex, size_t n)
{
	size_t got = 0;

	return n == 2 * len &&
	       !sodium_hex2bin(bin, len, hex, n, NULL, &got, NULL) &&
	       got == len;
}

/*
 * What has arrived of the client's line, a byte at a time so that nothing
 * after it is taken from the orders: 1 with the whole line in @p->line, 0
 * while it is not all there yet, -1 at the end of the stream, a read error
 * or a line too long.
 */
static int read_line(struct vta_pending *p)
{
	for (;;) {
		ssize_t n = read(p->fd, p->line + p->have, 1);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return 0;
		if (n <= 0)
			return -1;
		if (p->line[p->have] == '\n') {
			p->line[p->have] = '\0';
			return 1;
		}
		if (++p->have == sizeof(p->line) - 1)
			return -1;
	}
}

/* One error message @why to the client; @r, and what the agent says */
static enum vta_result refuse(int fd, enum vta_result r, const char *why,
			      char *err, size_t errlen, const char *said)
{
	char e2[128];

	vtproto_send(fd, "error", why, strlen(why), SEND_MS, e2, sizeof(e2));
	errmsg(err, errlen, "%s", said);
	return r;
}

enum vta_result vtauth_start(struct vta_pending *p, int fd,
			  const struct vta_key *key, int timeout_ms,
			  char *err, size_t errlen)
{
	char payload[64 + HEX(VTA_NONCE)];
	int r;

	p->fd = fd;
	p->key = key;
	p->have = 0;
	p->deadline = mono_ms() + timeout_ms;
	/* getrandom() does not fail once the pool is up: no reply then */
	if (key && random_bytes(p->na, sizeof(p->na), err, errlen))
		return VTA_NO_AUTH;
	r = snprintf(payload, sizeof(payload), "version=%u nonce=", VT_VERSION);
	if (key)
		sodium_bin2hex(payload + r, sizeof(payload) - r, p->na,
			       sizeof(p->na));
	else
		snprintf(payload + r, sizeof(payload) - r, "none");
	if (vtproto_send(fd, "challenge", payload, strlen(payload), SEND_MS, err,
		    errlen))
		return VTA_NO_AUTH;
	return key ? VTA_PENDING : VTA_OK;
}

/* The answer in @p->line checked, and the agent's own proof sent back */
static enum vta_result check_answer(struct vta_pending *p, char *err,
				    size_t errlen)
{
	unsigned char nc[VTA_NONCE], want[VTA_MAC], got[VTA_MAC];
	char payload[HEX(VTA_MAC)], *line = p->line, *nc_hex, *mac_hex;
	int i;

	/* "auth NONCE MAC", each VTA_NONCE / VTA_MAC bytes in hex */
	nc_hex = strncmp(line, "auth ", 5) ? NULL : line + 5;
	mac_hex = nc_hex ? strchr(nc_hex, ' ') : NULL;
	if (!mac_hex || !unhex(nc, sizeof(nc), nc_hex, mac_hex - nc_hex) ||
	    !unhex(got, sizeof(got), mac_hex + 1, strlen(mac_hex + 1))) {
		char said[64];

		for (i = 0; line[i]; i++)
			if (line[i] < 0x20 || line[i] > 0x7e)
				line[i] = '?';
		snprintf(said, sizeof(said), "'%.20s' instead of an answer",
			 line);
		return refuse(p->fd, VTA_NO_AUTH,
			      "this agent wants the key first (hyptrace listen --key FILE)",
			      err, errlen, said);
	}
	mac(p->key, LABEL_CLIENT, p->na, nc, want);
	if (crypto_verify_32(want, got))
		return refuse(p->fd, VTA_WRONG_KEY, "wrong key", err, errlen,
			      "a MAC that is not the key's: another key, or an answer replayed");
	mac(p->key, LABEL_AGENT, p->na, nc, want);
	sodium_bin2hex(payload, sizeof(payload), want, sizeof(want));
	if (vtproto_send(p->fd, "auth_ok", payload, strlen(payload), SEND_MS, err,
		    errlen))
		return VTA_NO_AUTH;
	return VTA_OK;
}

enum vta_result vtauth_step(struct vta_pending *p, char *err, size_t errlen)
{
	int r = read_line(p);

	if (r > 0)
		return check_answer(p, err, errlen);
	if (r < 0) {
		errmsg(err, errlen, "the client went away or sent a line too long before answering the challenge");
		return VTA_NO_AUTH;
	}
	if (mono_ms() < p->deadline)
		return VTA_PENDING;
	return refuse(p->fd, VTA_SILENT, "no answer to the challenge in time",
		      err, errlen, "nothing in time");
}

enum vta_result vtauth_serve(int fd, const struct vta_key *key, int timeout_ms,
			  char *err, size_t errlen)
{
	struct vta_pending p;
	enum vta_result r = vtauth_start(&p, fd, key, timeout_ms, err, errlen);

	while (r == VTA_PENDING) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		long long left = p.deadline - mono_ms();

		if (left > 0)
			poll(&pfd, 1, (int)left);
		r = vtauth_step(&p, err, errlen);
	}
	return r;
}

/* The next whole message from @fd by @deadline: 0, or -1 with why */
static int next_msg(int fd, struct vt_reader *rd, struct vt_msg *m,
		    long long deadline, char *err, size_t errlen)
{
	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		long long left = deadline - mono_ms();
		int r = vtproto_next(rd, m, err, errlen);
		ssize_t n;

		if (r)
			return r > 0 ? 0 : -1;
		if (left <= 0)
			return errmsg(err, errlen,
				      "the agent did not finish the handshake in time");
		if (poll(&pfd, 1, (int)left) <= 0)
			continue;
		n = vtproto_read(rd, fd, err, errlen);
		if (n < 0)
			return -1;
		if (!n)
			return errmsg(err, errlen,
				      "the agent closed the connection during the handshake");
	}
}

/* An "error" message, or -1 with why @m is not @name */
static int expect(const struct vt_msg *m, const char *name, char *err,
		  size_t errlen)
{
	if (!strcmp(m->name, name))
		return 0;
	if (!strcmp(m->name, "error"))
		return errmsg(err, errlen, "the agent says: %.*s",
			      (int)(m->len < 200 ? m->len : 200), m->payload);
	return errmsg(err, errlen,
		      "the agent sent '%s' where its %s was due: an agent older than protocol version %u?",
		      m->name, name, VT_VERSION);
}

int vtauth_answer(int fd, struct vt_reader *rd, const struct vta_key *key,
	       int timeout_ms, char *err, size_t errlen)
{
	unsigned char na[VTA_NONCE], nc[VTA_NONCE], m1[VTA_MAC], m2[VTA_MAC];
	char line[VTA_LINE_MAX + 1], nc_hex[HEX(VTA_NONCE)];
	long long deadline = mono_ms() + timeout_ms;
	unsigned int version;
	struct vt_msg m;
	int pos = 0;

	if (next_msg(fd, rd, &m, deadline, err, errlen) ||
	    expect(&m, "challenge", err, errlen))
		return -1;
	snprintf(line, sizeof(line), "%.*s",
		 (int)(m.len < VTA_LINE_MAX ? m.len : VTA_LINE_MAX), m.payload);
	if (sscanf(line, "version=%u nonce=%n", &version, &pos) != 1 || !pos)
		return errmsg(err, errlen, "a challenge that is not one");
	if (version != VT_VERSION)
		return errmsg(err, errlen,
			      "the agent speaks protocol version %u, this listener %u",
			      version, VT_VERSION);
	if (!strcmp(line + pos, "none")) {
		if (!key)
			return 0;
		return errmsg(err, errlen,
			      "the agent runs without a key (agent --no-key): it cannot prove it is yours; listen --no-key talks to it anyway");
	}
	if (!unhex(na, sizeof(na), line + pos, strlen(line + pos)))
		return errmsg(err, errlen, "a challenge that is not one");
	if (!key)
		return errmsg(err, errlen,
			      "the agent wants a key: --key FILE, the agent's");
	if (random_bytes(nc, sizeof(nc), err, errlen))
		return -1;
	mac(key, LABEL_CLIENT, na, nc, m1);
	sodium_bin2hex(nc_hex, sizeof(nc_hex), nc, sizeof(nc));
	pos = snprintf(line, sizeof(line), "auth %s ", nc_hex);
	sodium_bin2hex(line + pos, sizeof(line) - pos, m1, sizeof(m1));
	strcat(line, "\n");
	if (vtproto_send_raw(fd, line, err, errlen) ||
	    next_msg(fd, rd, &m, deadline, err, errlen) ||
	    expect(&m, "auth_ok", err, errlen))
		return -1;
	mac(key, LABEL_AGENT, na, nc, m1);
	if (!unhex(m2, sizeof(m2), m.payload, m.len) || crypto_verify_32(m1, m2))
		return errmsg(err, errlen,
			      "the agent did not prove it has the key: not the agent the key is for");
	return 0;
}
