/* admin_password.c: the new password of a user, read from standard input only (never
 * from the command line): on a terminal twice without echo, otherwise one line; then
 * hashed with bcrypt (rk_password_hash of rk_token.c).  Neither the password nor
 * its hash is ever printed; the password is wiped once hashed. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include <apr_strings.h>

#include "admin.h"
#include "rk_token.h"

#define PASSWORD_MAX     RK_PASSWORD_MAX   /* bcrypt uses the first 72 bytes only: refuse more */

/* The volatile pointer keeps the compiler from dropping the stores. */
void wipe(void *p, size_t n)
{
    volatile unsigned char *v = p;

    while (n--) {
        *v++ = 0;
    }
}

static struct termios saved_tty;
static volatile sig_atomic_t tty_changed;

static void restore_tty(void)
{
    if (tty_changed) {
        tcsetattr(STDIN_FILENO, TCSANOW, &saved_tty);
        tty_changed = 0;
    }
}

static void on_signal(int sig)
{
    restore_tty();
    signal(sig, SIG_DFL);
    raise(sig);
}

/* Read one line from standard input with read(2), so that no copy of it stays in a
 * stdio buffer.  Returns its length (the newline, and a CR before it, removed), or
 * -1 with a message when it is longer than PASSWORD_MAX bytes, holds a NUL byte or
 * cannot be read.  SIZE is at least PASSWORD_MAX + 3. */
static long read_line(char *buf, size_t size)
{
    size_t n = 0;

    for (;;) {
        char c;
        ssize_t r = read(STDIN_FILENO, &c, 1);

        if (r < 0 && errno == EINTR) {
            continue;
        }
        if (r < 0) {
            admin_err("cannot read the password from standard input: %s", strerror(errno));
            return -1;
        }
        if (r == 0 || c == '\n') {
            break;
        }
        if (c == '\0') {
            admin_err("refused: the password contains a NUL byte");
            return -1;
        }
        if (n + 1 >= size) {
            n = size;   /* too long: keep reading to the end of the line, so that
                         * no part of it is left for the shell on a terminal */
            continue;
        }
        buf[n++] = c;
    }
    if (n < size && n > 0 && buf[n - 1] == '\r') {
        n--;
    }
    if (n > PASSWORD_MAX) {
        admin_err("refused: the password is longer than %d bytes (bcrypt uses only the "
                  "first %d)", PASSWORD_MAX, PASSWORD_MAX);
        return -1;
    }
    buf[n] = '\0';
    return (long)n;
}

/* Prompt on stderr and read a line from the terminal on stdin without echo. */
static long read_hidden(const char *prompt, char *buf, size_t size)
{
    struct termios quiet;
    long n;

    if (tcgetattr(STDIN_FILENO, &saved_tty) != 0) {
        admin_err("cannot read the terminal settings: %s", strerror(errno));
        return -1;
    }
    quiet = saved_tty;
    quiet.c_lflag &= ~(tcflag_t)(ECHO | ECHOE | ECHOK);
    quiet.c_lflag |= ECHONL;
    tty_changed = 1;
    if (tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet) != 0) {
        tty_changed = 0;
        admin_err("cannot turn off the terminal's echo: %s", strerror(errno));
        return -1;
    }
    /* the prompt once the echo is off: what is typed after it is never shown */
    fputs(prompt, stderr);
    fflush(stderr);
    n = read_line(buf, size);
    restore_tty();
    return n;
}

/* While the terminal's echo is off: a signal that ends the command turns it on
 * again first. */
static void restore_tty_on_signals(void)
{
    struct sigaction sa;
    const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
    size_t i;

    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
        sigaction(sigs[i], &sa, NULL);
    }
}

/* The new password of USER into BUF (PASSWORD_MAX + 3 bytes at least).  On a
 * terminal: asked twice without echo, both must match.  Otherwise: one line of
 * standard input.  Refuses an empty password.  0 or an exit status. */
static int get_password(apr_pool_t *pool, const char *user, char *buf, size_t size)
{
    char again[PASSWORD_MAX + 3];
    int tty = isatty(STDIN_FILENO), rc = 0;
    long n, m;

    if (tty) {
        restore_tty_on_signals();
    }
    n = tty ? read_hidden(apr_psprintf(pool, "New password for %s: ", user), buf, size)
            : read_line(buf, size);
    if (n < 0) {
        return EXIT_USAGE;
    }
    if (n == 0) {
        admin_err("refused: empty password");
        return EXIT_USAGE;
    }
    if (!tty) {
        return 0;
    }
    m = read_hidden("Retype the new password: ", again, sizeof(again));
    if (m < 0) {
        rc = EXIT_USAGE;
    }
    else if (m != n || memcmp(buf, again, (size_t)n) != 0) {
        admin_err("refused: the two passwords differ");
        rc = EXIT_USAGE;
    }
    wipe(again, sizeof(again));
    return rc;
}

int new_password_hash(apr_pool_t *pool, const char *user, int cost, char *hash)
{
    char pw[PASSWORD_MAX + 3];
    int rc = get_password(pool, user, pw, sizeof(pw));

    if (rc == 0 && rk_password_hash(pw, cost, hash, HASH_BUF) != 0) {
        admin_err("cannot hash the password (bcrypt, cost %d)", cost);
        rc = EXIT_DB;
    }
    wipe(pw, sizeof(pw));
    return rc;
}
