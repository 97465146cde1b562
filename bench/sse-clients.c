/* bench/sse-clients.c: many event-stream clients at once, for ./scripts/bench and the
 * tests of live updates (t/faults/faults.pl).  One process, epoll, no threads;
 * connects to 127.0.0.1 only.
 *
 *   sse-clients stream PORT TOKEN PATH N PUT_PATH PUT_BODY [HOLD]
 *       Opens N event streams (GET PATH with "Authorization: Bearer TOKEN" and
 *       "Accept: text/event-stream"), at most 256 connecting at a time, and waits
 *       until each has its answer's head.  Then makes one lane PUT (PUT_PATH, the JSON
 *       body PUT_BODY) on a connection of its own and measures, for each stream, the
 *       time from the PUT's answer to the lane event reaching it.  With HOLD seconds,
 *       it then prints a line {"phase":"holding",...}, keeps reading the streams (their
 *       keep-alive comments) until HOLD seconds passed or its standard input reached
 *       its end, whichever comes first (the caller measures the server meanwhile), and
 *       counts the streams that ended meanwhile.  With SSE_PAUSE_AT=K in the
 *       environment, it pauses once K streams are opened (SSE_PAUSE_AT, below).  Prints one
 *       line of JSON:
 *         streams, established, failed (refused, closed or not 200), open_seconds,
 *         received (streams that got the event), p50_ms, p99_ms, max_ms,
 *         lost_while_holding.
 *   sse-clients churn PORT TOKEN PATH M K
 *       Opens and closes M streams in all, K at a time: each is closed by the client as
 *       soon as its head and the stream's first comment arrived.  Prints one line of
 *       JSON: opened_and_closed, ok (answered 200), failed, seconds.
 *
 * Bounded in time: opening the streams and waiting for the event give up after 60 s
 * each, a churn after 600 s; HOLD is at most 3600.
 * Exit status: 0 the measurement is complete (every stream opened and, in stream mode,
 * got the event; in churn mode every stream answered 200); 1 it ran but is incomplete
 * (a stream failed or missed the event, or a time limit was reached); 2 usage, or a
 * system error, or the PUT was not answered 200. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define PHASE_LIMIT 60.0
#define CHURN_LIMIT 600.0
#define CONNECTING_MAX 256
#define EVENT_MARK "\nevent: lane\n"

enum { FREE, CONNECTING, SENT, OPEN, FAILED };

typedef struct {
    int fd;
    int state;
    int greeted;       /* the stream's first comment arrived after the head */
    double got;        /* when its lane event arrived, or 0 */
    size_t seen;       /* bytes of the head kept in buf */
    char buf[1024];
    char tail[16];     /* the last bytes read: a mark split between two reads */
    size_t tlen;
} client;

static const char *g_token, *g_path;
static int g_port, g_ep;
static int n_connecting, n_sent, n_open, n_failed;

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int usage(const char *me)
{
    fprintf(stderr, "usage: %s stream PORT TOKEN PATH N PUT_PATH PUT_BODY [HOLD]\n"
                    "       %s churn PORT TOKEN PATH M K\n"
                    "(connects to 127.0.0.1:PORT; exit 0 complete, 1 incomplete, 2 error)\n",
            me, me);
    return 2;
}

static int positive(const char *s, int max, int *out)
{
    char *end;
    long v = strtol(s, &end, 10);

    if (*s == '\0' || *end != '\0' || v < 1 || v > max) {
        return -1;
    }
    *out = (int)v;
    return 0;
}

static int sock_to_loopback(int nonblock)
{
    struct sockaddr_in a;
    int one = 1, fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | (nonblock ? SOCK_NONBLOCK : 0), 0);

    if (fd < 0) {
        return -1;
    }
    memset(&a, 0, sizeof(a));
    a.sin_family = AF_INET;
    a.sin_port = htons((unsigned short)g_port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    if (connect(fd, (struct sockaddr *)&a, sizeof(a)) != 0 && errno != EINPROGRESS) {
        close(fd);
        return -1;
    }
    return fd;
}

static void set_state(client *c, int state)
{
    n_connecting -= c->state == CONNECTING;
    n_sent -= c->state == SENT;
    n_open -= c->state == OPEN;
    n_failed -= c->state == FAILED;
    c->state = state;
    n_connecting += state == CONNECTING;
    n_sent += state == SENT;
    n_open += state == OPEN;
    n_failed += state == FAILED;
}

static void drop(client *c, int state)
{
    if (c->fd >= 0) {
        epoll_ctl(g_ep, EPOLL_CTL_DEL, c->fd, NULL);
        close(c->fd);
        c->fd = -1;
    }
    set_state(c, state);
}

/* Start connecting C (nonblocking). */
static void start(client *c)
{
    struct epoll_event ev;

    c->got = 0;
    c->seen = c->tlen = 0;
    c->greeted = 0;
    c->fd = sock_to_loopback(1);
    memset(&ev, 0, sizeof(ev));
    ev.events = EPOLLOUT;
    ev.data.ptr = c;
    if (c->fd < 0 || epoll_ctl(g_ep, EPOLL_CTL_ADD, c->fd, &ev) != 0) {
        drop(c, FAILED);
        return;
    }
    set_state(c, CONNECTING);
}

/* C is connected (or failed to): send its request. */
static void on_writable(client *c)
{
    char req[2048];
    int n, err = 0;
    socklen_t len = sizeof(err);
    struct epoll_event ev;

    if (getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0 || err != 0) {
        drop(c, FAILED);
        return;
    }
    n = snprintf(req, sizeof(req), "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                 "Authorization: Bearer %s\r\nAccept: text/event-stream\r\n\r\n", g_path, g_token);
    /* a fresh socket's buffer takes a request this small in one write */
    if (n <= 0 || (size_t)n >= sizeof(req) || write(c->fd, req, (size_t)n) != n) {
        drop(c, FAILED);
        return;
    }
    memset(&ev, 0, sizeof(ev));
    ev.events = EPOLLIN;
    ev.data.ptr = c;
    epoll_ctl(g_ep, EPOLL_CTL_MOD, c->fd, &ev);
    set_state(c, SENT);
}

/* Read what C has: its head, then its events.  T: the time it was read. */
static void on_readable(client *c, double t)
{
    char tmp[16384];
    ssize_t k;

    while ((k = read(c->fd, tmp, sizeof(tmp))) > 0) {
        const char *body = tmp;
        size_t blen = (size_t)k;

        if (c->state == SENT) {
            size_t room = sizeof(c->buf) - 1 - c->seen, take = blen < room ? blen : room;
            char *end;

            memcpy(c->buf + c->seen, tmp, take);
            c->seen += take;
            c->buf[c->seen] = '\0';
            if (!(end = strstr(c->buf, "\r\n\r\n"))) {
                if (c->seen == sizeof(c->buf) - 1) {
                    drop(c, FAILED);   /* a head this long is not ours */
                    return;
                }
                continue;
            }
            if (strncmp(c->buf, "HTTP/1.1 200", 12) != 0) {
                drop(c, FAILED);
                return;
            }
            set_state(c, OPEN);
            /* what came after the head, in this read */
            body = tmp + (size_t)(end + 4 - c->buf) - (c->seen - take);
            blen = (size_t)(tmp + k - body);
        }
        if (blen > 0) {
            c->greeted = 1;
        }
        if (!c->got && blen > 0) {
            char joined[sizeof(c->tail) + 16384];

            memcpy(joined, c->tail, c->tlen);
            memcpy(joined + c->tlen, body, blen);
            if (memmem(joined, c->tlen + blen, EVENT_MARK, sizeof(EVENT_MARK) - 1)) {
                c->got = t;
            }
            if (blen >= sizeof(c->tail)) {
                memcpy(c->tail, body + blen - sizeof(c->tail), sizeof(c->tail));
                c->tlen = sizeof(c->tail);
            }
            else {
                size_t keep = c->tlen + blen > sizeof(c->tail) ? sizeof(c->tail) - blen : c->tlen;

                memmove(c->tail, c->tail + c->tlen - keep, keep);
                memcpy(c->tail + keep, body, blen);
                c->tlen = keep + blen;
            }
        }
    }
    if (k == 0 || (k < 0 && errno != EAGAIN && errno != EINTR)) {
        drop(c, FAILED);
    }
}

static void handle(struct epoll_event *e, double t)
{
    client *c = e->data.ptr;

    if (c->state == CONNECTING) {
        on_writable(c);
    }
    else if (c->state == SENT || c->state == OPEN) {
        on_readable(c, t);
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return x < y ? -1 : x > y;
}

/* One lane PUT on a connection of its own, bounded by PHASE_LIMIT: 0 when it was
 * answered 200. */
static int put_lane(const char *path, const char *body)
{
    char req[8192], resp[4096];
    int fd = sock_to_loopback(0), n;
    size_t got = 0, sent = 0;
    struct timeval tv = { (long)PHASE_LIMIT, 0 };

    if (fd < 0) {
        return -1;
    }
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
    n = snprintf(req, sizeof(req), "PUT %s HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer %s\r\n"
                 "Content-Type: application/json\r\nContent-Length: %zu\r\nConnection: close\r\n\r\n%s",
                 path, g_token, strlen(body), body);
    if (n <= 0 || (size_t)n >= sizeof(req)) {
        close(fd);
        return -1;
    }
    while (sent < (size_t)n) {
        ssize_t k = write(fd, req + sent, (size_t)n - sent);

        if (k <= 0) {
            close(fd);
            return -1;
        }
        sent += (size_t)k;
    }
    while (got < sizeof(resp) - 1) {
        ssize_t k = read(fd, resp + got, sizeof(resp) - 1 - got);

        if (k <= 0) {
            break;
        }
        got += (size_t)k;
        resp[got] = '\0';
        if (strstr(resp, "\r\n\r\n")) {
            break;
        }
    }
    resp[got] = '\0';
    close(fd);
    if (strncmp(resp, "HTTP/1.1 200", 12) != 0) {
        fprintf(stderr, "sse-clients: the lane PUT was answered \"%.*s\"\n",
                (int)strcspn(resp, "\r\n"), resp);
        return -1;
    }
    return 0;
}

static void raise_fd_limit(void)
{
    struct rlimit rl;

    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
}

/* One round of epoll: wait at most MS, handle what came. */
static void pump(int ms)
{
    struct epoll_event evs[1024];
    int k = epoll_wait(g_ep, evs, 1024, ms), j;
    double t = now();

    for (j = 0; j < k; j++) {
        handle(&evs[j], t);
    }
}

/* Prints {"phase":PHASE,"streams":OPEN}, then keeps the streams read (every MS) for at
 * most LIMIT seconds, until the standard input ends or, when UNTIL_LINE, brings a line
 * (the caller measures the server meanwhile).  Returns the seconds it waited. */
static double phase_wait(const char *phase, double limit, int ms, int until_line)
{
    double t = now();
    struct pollfd in = { 0, POLLIN, 0 };
    char b[256];

    printf("{\"phase\":\"%s\",\"streams\":%d}\n", phase, n_open);
    fflush(stdout);
    while (now() - t < limit) {
        pump(ms);
        if (poll(&in, 1, 0) == 1 && (read(0, b, sizeof(b)) <= 0 || until_line)) {
            break;   /* the input ended, or the line to go on came */
        }
        if (in.revents & (POLLHUP | POLLNVAL)) {
            in.fd = -1;   /* no input to follow */
        }
    }
    return now() - t;
}

/* SSE_PAUSE_AT=K: once the first K streams are opened (or failed), a pause
 * ("paused") until a line arrives on the standard input (or it ends, or PHASE_LIMIT
 * passes); then the rest are opened.  The caller measures the server with K streams
 * open, then with all of them: the increment is the cost of the streams alone, without
 * what the first ones paid once for all (a worker's memory, touched for the first
 * time). */
static int stream_mode(int n, const char *put_path, const char *put_body, int hold)
{
    const char *pa = getenv("SSE_PAUSE_AT");
    int pause_at = pa ? atoi(pa) : -1;
    client *cs = calloc((size_t)n, sizeof(*cs));
    int i, next = 0, got = 0, lost = 0, complete = 1;
    double t0, open_s, tput, *lat;

    if (!cs) {
        perror("sse-clients");
        return 2;
    }
    if (pause_at <= 0 || pause_at >= n) {
        pause_at = -1;   /* no pause */
    }
    for (i = 0; i < n; i++) {
        cs[i].fd = -1;
    }
    t0 = now();
    while (now() - t0 < PHASE_LIMIT) {
        while (next < n && next != pause_at && n_connecting + n_sent < CONNECTING_MAX) {
            start(&cs[next++]);
        }
        if (next == pause_at && n_connecting + n_sent == 0) {
            t0 += phase_wait("paused", PHASE_LIMIT, 100, 1);   /* not part of the opening */
            pause_at = -1;
            continue;
        }
        if (next == n && n_connecting + n_sent == 0) {
            break;
        }
        pump(100);
    }
    open_s = now() - t0;
    if (next < n || n_connecting + n_sent > 0) {
        complete = 0;   /* some never got their head: counted as failed below */
    }
    if (put_lane(put_path, put_body) != 0) {
        return 2;
    }
    tput = now();
    while (now() - tput < PHASE_LIMIT) {
        for (got = 0, i = 0; i < n; i++) {
            got += cs[i].got > 0;
        }
        if (got >= n_open) {
            break;
        }
        pump(100);
    }
    lat = calloc((size_t)(got ? got : 1), sizeof(*lat));
    if (!lat) {
        perror("sse-clients");
        return 2;
    }
    for (got = 0, i = 0; i < n; i++) {
        if (cs[i].got > 0) {
            lat[got++] = (cs[i].got - tput) * 1000.0;
        }
    }
    qsort(lat, (size_t)got, sizeof(*lat), cmp_double);
    if (hold > 0) {
        int before = n_open;

        phase_wait("holding", hold, 200, 0);
        lost = before - n_open;
    }
    printf("{\"streams\":%d,\"established\":%d,\"failed\":%d,\"open_seconds\":%.2f,"
           "\"received\":%d,\"p50_ms\":%.1f,\"p99_ms\":%.1f,\"max_ms\":%.1f,"
           "\"lost_while_holding\":%d}\n",
           n, n_open + lost, n - n_open - lost, open_s, got, got ? lat[got / 2] : -1.0,
           got ? lat[(int)((got - 1) * 0.99)] : -1.0, got ? lat[got - 1] : -1.0, lost);
    if (got < n || lost > 0) {
        complete = 0;
    }
    for (i = 0; i < n; i++) {
        if (cs[i].fd >= 0) {
            close(cs[i].fd);
        }
    }
    free(lat);
    free(cs);
    return complete ? 0 : 1;
}

static int churn_mode(int m, int k)
{
    client *cs = calloc((size_t)k, sizeof(*cs));
    int started = 0, done = 0, ok = 0, failed = 0, i;
    double t0 = now();

    if (!cs) {
        perror("sse-clients");
        return 2;
    }
    for (i = 0; i < k; i++) {
        cs[i].fd = -1;
    }
    while (done < m && now() - t0 < CHURN_LIMIT) {
        for (i = 0; i < k; i++) {
            client *c = &cs[i];

            if (c->state == OPEN && c->greeted) {
                ok++;
                done++;
                drop(c, FREE);
            }
            else if (c->state == FAILED) {
                failed++;
                done++;
                set_state(c, FREE);
            }
            if (c->state == FREE && started < m) {
                started++;
                start(c);
            }
        }
        pump(100);
    }
    printf("{\"opened_and_closed\":%d,\"ok\":%d,\"failed\":%d,\"seconds\":%.1f}\n", done, ok,
           failed, now() - t0);
    for (i = 0; i < k; i++) {
        if (cs[i].fd >= 0) {
            close(cs[i].fd);
        }
    }
    free(cs);
    return ok == m ? 0 : 1;
}

int main(int argc, char **argv)
{
    int n, k, hold = 0;

    if (argc < 2) {
        return usage(argv[0]);
    }
    raise_fd_limit();
    if ((g_ep = epoll_create1(EPOLL_CLOEXEC)) < 0) {
        perror("sse-clients: epoll");
        return 2;
    }
    if (!strcmp(argv[1], "stream") && (argc == 8 || argc == 9)) {
        if (positive(argv[2], 65535, &g_port) != 0 || positive(argv[5], 1000000, &n) != 0
            || (argc == 9 && positive(argv[8], 3600, &hold) != 0)) {
            return usage(argv[0]);
        }
        g_token = argv[3];
        g_path = argv[4];
        return stream_mode(n, argv[6], argv[7], hold);
    }
    if (!strcmp(argv[1], "churn") && argc == 7) {
        if (positive(argv[2], 65535, &g_port) != 0 || positive(argv[5], 100000000, &n) != 0
            || positive(argv[6], 100000, &k) != 0) {
            return usage(argv[0]);
        }
        g_token = argv[3];
        g_path = argv[4];
        return churn_mode(n, k);
    }
    return usage(argv[0]);
}
