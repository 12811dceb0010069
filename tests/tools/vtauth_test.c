// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of the key and the challenge-response of `hyptrace agent -N`
 * and `hyptrace listen -N` (tools/hyptrace/lib/vtauth.c), over socket
 * pairs, the agent's end in a thread: the real client is served; a wrong
 * key, an order or an empty line instead of the answer, silence, and an
 * answer replayed from an earlier connection are refused, each with the
 * right kind and an "error" message to the client. The client's answer
 * here is computed by hand from the protocol text (vtproto.h), not by
 * vtauth.c, so that the two must agree. The client refuses an agent
 * without the key's proof, one that runs without a key (unless it has
 * none either), an older agent and a busy one. Key files: made by
 * keygen, never over a file; refused if a symlink, open to others, too
 * short or too long.
 */
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "check.h"
#include "hyptrace/vtauth.h"

#define MS	5000

static const struct vta_key k1 = { "0123456789abcdefghij", 20 };
static const struct vta_key k2 = { "0123456789abcdefghiJ", 20 };
static char said[256];	/* what the agent's end said of the last client */

struct srv {
	int fd;
	const struct vta_key *key;
	int timeout_ms;
	enum vta_result r;
	char err[256];
	pthread_t t;
};

static void *srv_main(void *p)
{
	struct srv *s = p;

	s->r = vtauth_serve(s->fd, s->key, s->timeout_ms, s->err,
			 sizeof(s->err));
	return NULL;
}

/* The agent's end on a new pair; the client's fd in *@cfd */
static void srv_start(struct srv *s, const struct vta_key *key,
		      int timeout_ms, int *cfd)
{
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		abort();
	fcntl(sv[0], F_SETFL, O_NONBLOCK);
	fcntl(sv[1], F_SETFL, O_NONBLOCK);
	memset(s, 0, sizeof(*s));
	s->fd = sv[0];
	s->key = key;
	s->timeout_ms = timeout_ms;
	*cfd = sv[1];
	pthread_create(&s->t, NULL, srv_main, s);
}

static enum vta_result srv_end(struct srv *s)
{
	pthread_join(s->t, NULL);
	close(s->fd);
	return s->r;
}

/* The next message on @fd into @m (payload NUL-ended in @pl); 0 or -1 */
static int get_msg(int fd, struct vt_reader *rd, struct vt_msg *m, char *pl,
		   size_t cap)
{
	char err[256];
	int r;

	while (!(r = vtproto_next(rd, m, err, sizeof(err)))) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };

		if (poll(&pfd, 1, MS) <= 0 || vtproto_read(rd, fd, err, sizeof(err)) <= 0)
			return -1;
	}
	if (r < 0 || m->len >= cap)
		return -1;
	memcpy(pl, m->payload, m->len);
	pl[m->len] = '\0';
	return 0;
}

static void put(int fd, const char *s)
{
	char err[256];

	vtproto_send_raw(fd, s, err, sizeof(err));
}

/*
 * The answer to challenge payload @pl with @key, from the protocol text:
 * "auth NC MAC\n", MAC = HMAC-SHA256(key, "hyptrace-vt3 client\n" NA NC)
 */
static void answer(const char *pl, const struct vta_key *key, char *line)
{
	unsigned char na[32], nc[32], mac[32];
	crypto_auth_hmacsha256_state st;
	char h1[65], h2[65];

	sodium_hex2bin(na, 32, strstr(pl, "nonce=") + 6, 64, NULL, NULL, NULL);
	randombytes_buf(nc, sizeof(nc));
	crypto_auth_hmacsha256_init(&st, key->k, key->len);
	crypto_auth_hmacsha256_update(&st,
		(const unsigned char *)"hyptrace-vt3 client\n", 20);
	crypto_auth_hmacsha256_update(&st, na, 32);
	crypto_auth_hmacsha256_update(&st, nc, 32);
	crypto_auth_hmacsha256_final(&st, mac);
	sodium_bin2hex(h1, sizeof(h1), nc, 32);
	sodium_bin2hex(h2, sizeof(h2), mac, 32);
	sprintf(line, "auth %s %s\n", h1, h2);
}

/*
 * A hand-made client: takes the challenge, sends @send (or the answer
 * with @key if @send is NULL, or nothing if @key is NULL too), and the
 * agent's reply's name into @reply ("" if it closed). The line it sent
 * into @sent.
 */
static enum vta_result by_hand(const struct vta_key *agent_key, int ms,
			       const char *send, const struct vta_key *key,
			       char *reply, char *sent)
{
	struct vt_reader rd = { 0 };
	char pl[512], line[256] = "";
	struct vt_msg m;
	struct srv s;
	int fd;

	srv_start(&s, agent_key, ms, &fd);
	reply[0] = '\0';
	if (!get_msg(fd, &rd, &m, pl, sizeof(pl))) {
		if (send)
			snprintf(line, sizeof(line), "%s", send);
		else if (key)
			answer(pl, key, line);
		if (line[0] && send == NULL)
			strcat(line, "1\n");	/* an order right behind it */
		if (line[0])
			put(fd, line);
		/* an agent without a key says nothing more */
		if (agent_key && !get_msg(fd, &rd, &m, pl, sizeof(pl)))
			snprintf(reply, 80, "%s", m.name);
	}
	if (sent)
		snprintf(sent, 256, "%.*s", (int)strcspn(line, "\n") + 1, line);
	close(fd);
	vtproto_reader_free(&rd);
	pthread_join(s.t, NULL);
	snprintf(said, sizeof(said), "%s", s.err);
	/* the agent's end took the answer's line and nothing after it */
	if (s.r == VTA_OK && key && !send &&
	    (read(s.fd, pl, sizeof(pl)) != 2 || memcmp(pl, "1\n", 2)))
		s.r = VTA_NR_RESULTS;
	close(s.fd);
	return s.r;
}

static int test_serve(void)
{
	char reply[80], sent[256];

	CHECK(by_hand(&k1, MS, NULL, &k1, reply, sent) == VTA_OK &&
	      !strcmp(reply, "auth_ok"), "the key's answer: %s", reply);
	/* the same answer on the next connection: its nonce differs */
	CHECK(by_hand(&k1, MS, sent, NULL, reply, NULL) == VTA_WRONG_KEY &&
	      !strcmp(reply, "error") && strstr(said, "replayed"),
	      "a replayed answer: %s, %s", reply, said);
	CHECK(by_hand(&k1, MS, NULL, &k2, reply, NULL) == VTA_WRONG_KEY &&
	      !strcmp(reply, "error"), "another key: %s", reply);
	CHECK(by_hand(&k1, MS, "1\n", NULL, reply, NULL) == VTA_NO_AUTH &&
	      !strcmp(reply, "error") &&
	      !strcmp(said, "'1' instead of an answer"),
	      "an order first: %s, %s", reply, said);
	CHECK(by_hand(&k1, MS, "\n", NULL, reply, NULL) == VTA_NO_AUTH &&
	      !strcmp(reply, "error"), "an empty line: %s", reply);
	CHECK(by_hand(&k1, MS, "auth 00 11\n", NULL, reply, NULL) ==
	      VTA_NO_AUTH, "a short answer");
	CHECK(by_hand(&k1, 300, NULL, NULL, reply, NULL) == VTA_SILENT &&
	      !strcmp(reply, "error"), "silence: %s", reply);
	/* --no-key: nothing awaited, anyone served */
	CHECK(by_hand(NULL, MS, NULL, NULL, reply, NULL) == VTA_OK,
	      "no key");
	return 0;
}

/* vtauth_answer() against vtauth_serve() with @ak / @ck; its result, its err */
static int both(const struct vta_key *ak, const struct vta_key *ck,
		enum vta_result *r, char *err)
{
	struct vt_reader rd = { 0 };
	struct srv s;
	int fd, ret;

	srv_start(&s, ak, MS, &fd);
	ret = vtauth_answer(fd, &rd, ck, MS, err, 256);
	close(fd);
	*r = srv_end(&s);
	vtproto_reader_free(&rd);
	return ret;
}

static int test_answer(void)
{
	enum vta_result r = VTA_OK;
	char err[256];

	CHECK(!both(&k1, &k1, &r, err) && r == VTA_OK, "same key: %s", err);
	r = VTA_NR_RESULTS;
	CHECK(both(&k1, &k2, &r, err) && r == VTA_WRONG_KEY &&
	      strstr(err, "the agent says: wrong key"), "wrong key: %s", err);
	CHECK(both(&k1, NULL, &r, err) && strstr(err, "wants a key"),
	      "no key here: %s", err);
	CHECK(both(NULL, &k1, &r, err) && strstr(err, "without a key"),
	      "no key there: %s", err);
	CHECK(!both(NULL, NULL, &r, err) && r == VTA_OK, "no key at all: %s",
	      err);
	return 0;
}

/* A fake agent that sends @first, then (for a challenge) @proof */
static int fake_agent(const char *first, const char *proof, char *err)
{
	struct vt_reader rd = { 0 };
	int sv[2], r;
	char e2[256];

	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	fcntl(sv[1], F_SETFL, O_NONBLOCK);
	if (first)
		put(sv[0], first);
	if (proof)
		vtproto_send(sv[0], "auth_ok", proof, strlen(proof), MS, e2,
			sizeof(e2));
	if (!first)
		shutdown(sv[0], SHUT_WR);
	r = vtauth_answer(sv[1], &rd, &k1, MS, err, 256);
	close(sv[0]);
	close(sv[1]);
	vtproto_reader_free(&rd);
	return r;
}

static int test_fake_agents(void)
{
	char ch[128] = "challenge 80\nversion=3 nonce=", err[256];
	char mac[65];

	memset(ch + strlen(ch), 'a', 64);
	memset(mac, 'b', 64);
	mac[64] = '\0';
	CHECK(fake_agent(ch, mac, err) && strstr(err, "did not prove"),
	      "no proof: %s", err);
	CHECK(fake_agent("hello 5\nhello", NULL, err) &&
	      strstr(err, "older than protocol version 3"), "old: %s", err);
	CHECK(fake_agent("error 4\nbusy", NULL, err) &&
	      strstr(err, "the agent says: busy"), "busy: %s", err);
	CHECK(fake_agent("challenge 17\nversion=2 nonce=x", NULL, err) &&
	      strstr(err, "version 2"), "version 2: %s", err);
	CHECK(fake_agent(NULL, NULL, err) && strstr(err, "closed"),
	      "closed: %s", err);
	return 0;
}

static int test_key_files(void)
{
	char dir[] = "/tmp/vtauth_test.XXXXXX", f[64], l[64], err[256];
	struct vta_key k;
	int fd;

	CHECK(mkdtemp(dir), "mkdtemp");
	snprintf(f, sizeof(f), "%s/key", dir);
	snprintf(l, sizeof(l), "%s/link", dir);
	CHECK(!vtauth_keygen(f, err, sizeof(err)), "keygen: %s", err);
	CHECK(!vtauth_load_key(f, &k, err, sizeof(err)) && k.len == 64,
	      "load: %s", err);
	CHECK(vtauth_keygen(f, err, sizeof(err)) && strstr(err, "File exists"),
	      "keygen over a file: %s", err);
	CHECK(!symlink(f, l), "symlink");
	CHECK(vtauth_load_key(l, &k, err, sizeof(err)) && strstr(err, "symlink"),
	      "through a symlink: %s", err);
	chmod(f, 0640);
	CHECK(vtauth_load_key(f, &k, err, sizeof(err)) && strstr(err, "chmod 600"),
	      "group-readable: %s", err);
	unlink(f);
	fd = open(f, O_WRONLY | O_CREAT, 0600);
	CHECK(write(fd, "short key\n", 10) == 10, "write");
	close(fd);
	CHECK(vtauth_load_key(f, &k, err, sizeof(err)) && strstr(err, "fewer than 16"),
	      "short: %s", err);
	fd = open(f, O_WRONLY | O_TRUNC);
	CHECK(write(fd, k2.k, sizeof(k2.k)) == sizeof(k2.k) &&
	      write(fd, "x", 1) == 1, "write");
	close(fd);
	CHECK(vtauth_load_key(f, &k, err, sizeof(err)) && strstr(err, "more than"),
	      "long: %s", err);
	CHECK(vtauth_load_key(dir, &k, err, sizeof(err)), "a directory");
	unlink(f);
	unlink(l);
	rmdir(dir);
	return 0;
}

int main(void)
{
	ck_run("vtauth_serve", test_serve);
	ck_run("vtauth_answer", test_answer);
	ck_run("vtauth_fake_agents", test_fake_agents);
	ck_run("vtauth_key_files", test_key_files);
	return ck_exit();
}
