/* Tests of the shared pieces in src/util: buffer, reader, output files,
 * parameters, random numbers, the parsers' character and number readers;
 * and that every layer's _free takes NULL. */
#include "util.h"

#include "backend.h"
#include "compare.h"
#include "puzzle.h"

#include "testutil.h"
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

START_TEST(test_buf)
{
    ilpm_buf b;
    ilpm_buf_init(&b);
    ck_assert_str_eq(ilpm_buf_str(&b), "");
    ilpm_buf_printf(&b, "%d-%s", 42, "x");
    ilpm_buf_putc(&b, ' ');
    ilpm_buf_json_str(&b, "a\"b\\c\n\x01");
    ck_assert_str_eq(ilpm_buf_str(&b), "42-x \"a\\\"b\\\\c\\n\\u0001\"");
    /* Longer than the printf fast path. */
    char big[1000];
    memset(big, 'y', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    ilpm_buf_clear(&b);
    ilpm_buf_printf(&b, "%s%s", big, big);
    ck_assert_uint_eq(b.len, 2 * (sizeof big - 1));
    char *s = ilpm_buf_take(&b);
    ck_assert_uint_eq(strlen(s), 2 * (sizeof big - 1));
    free(s);
    ck_assert_str_eq(ilpm_buf_str(&b), "");
    ilpm_buf_free(&b);
}
END_TEST

START_TEST(test_reader_lines)
{
    const char data[] = "first\r\n\n# c\nlast";
    ilpm_reader *r = ilpm_reader_mem("mem", data, sizeof data - 1);
    const char *line;
    size_t len;
    ilpm_err err;
    ck_assert_int_eq(ilpm_reader_line(r, &line, &len, &err), 1);
    ck_assert_str_eq(line, "first");
    ck_assert_uint_eq(len, 5);
    ck_assert_int_eq(ilpm_reader_line(r, &line, &len, &err), 1);
    ck_assert_int_eq(ilpm_line_is_blank_or_comment(line), 1);
    ilpm_reader_unread(r);
    ck_assert_int_eq(ilpm_reader_line(r, &line, &len, &err), 1);
    ck_assert_int_eq(ilpm_reader_lineno(r), 2);
    ck_assert_int_eq(ilpm_reader_line(r, &line, &len, &err), 1);
    ck_assert_int_eq(ilpm_line_is_blank_or_comment(line), 1);
    ck_assert_int_eq(ilpm_reader_line(r, &line, &len, &err), 1);
    ck_assert_str_eq(line, "last");
    ck_assert_int_eq(ilpm_reader_lineno(r), 4);
    ilpm_reader_error(r, &err, 3, "bad %s", "thing");
    ck_assert_str_eq(err.msg, "mem:4:3: bad thing");
    ck_assert_int_eq(ilpm_reader_line(r, &line, &len, &err), 0);
    ck_assert_int_eq(ilpm_reader_line(r, &line, &len, &err), 0);
    ilpm_reader_free(r);
}
END_TEST

START_TEST(test_reader_bad_bytes)
{
    const char data[] = "ok\nnul\0here\nafter\n";
    ilpm_reader *r = ilpm_reader_mem("f.txt", data, sizeof data - 1);
    const char *line;
    size_t len;
    ilpm_err err;
    ck_assert_int_eq(ilpm_reader_line(r, &line, &len, &err), 1);
    ck_assert_int_eq(ilpm_reader_line(r, &line, &len, &err), -1);
    ck_assert_str_eq(err.msg, "f.txt:2:4: NUL byte in a text line");
    /* The reader goes on after the bad line. */
    ck_assert_int_eq(ilpm_reader_line(r, &line, &len, &err), 1);
    ck_assert_str_eq(line, "after");
    ilpm_reader_free(r);

    size_t n = ILPM_LINE_MAX + 10;
    char *big = malloc(n + 4);
    memset(big, 'x', n);
    memcpy(big + n, "\nz\n", 3);
    r = ilpm_reader_mem("big", big, n + 3);
    ck_assert_int_eq(ilpm_reader_line(r, &line, &len, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.msg, "big:1:"));
    ck_assert_ptr_nonnull(strstr(err.msg, "longer than"));
    ck_assert_int_eq(ilpm_reader_line(r, &line, &len, &err), 1);
    ck_assert_str_eq(line, "z");
    ilpm_reader_free(r);
    free(big);
}
END_TEST

START_TEST(test_reader_missing_file)
{
    ilpm_err err;
    ck_assert_ptr_null(ilpm_reader_open("/nonexistent/x.txt", &err));
    ck_assert_ptr_nonnull(strstr(err.msg, "/nonexistent/x.txt: cannot open"));
}
END_TEST

/* A reader under a watch stops at its stop flag and at its deadline,
 * inside a line too (endless input has no line end): -1 with the status,
 * then the end of the input. */
START_TEST(test_reader_watch)
{
    const char data[] = "one\ntwo\n";
    ilpm_reader *r = ilpm_reader_mem("mem", data, sizeof data - 1);
    const char *line;
    size_t len;
    ilpm_err err = {0};
    volatile int stop = 0;
    ilpm_watch w;
    ilpm_watch_until(&w, 0, &stop);
    ilpm_reader_set_watch(r, &w);
    ck_assert_int_eq(ilpm_reader_line(r, &line, &len, &err), 1);
    stop = 1;
    ck_assert_int_eq(ilpm_reader_line(r, &line, &len, &err), -1);
    ck_assert_int_eq(err.rc, ILPM_E_INTERRUPTED);
    ck_assert_str_eq(err.msg, "stopped while reading mem (line 2)");
    ck_assert_int_eq(ilpm_reader_line(r, &line, &len, &err), 0);
    ilpm_reader_free(r);

    /* 4 MB without a line end, under a deadline already past. */
    size_t n = 4u << 20;
    char *big = calloc(n, 1);
    ck_assert_ptr_nonnull(big);
    memset(big, 'x', n);
    r = ilpm_reader_mem("big", big, n);
    ilpm_watch_until(&w, ilpm_now() + 1e-9, NULL);
    w.tick = 1; /* the poll at the line's start does not read the clock */
    ilpm_reader_set_watch(r, &w);
    err = (ilpm_err){0};
    ck_assert_int_eq(ilpm_reader_line(r, &line, &len, &err), -1);
    ck_assert_int_eq(err.rc, ILPM_E_TIMEOUT);
    ck_assert_str_eq(err.msg, "time limit reached while reading big (line 1)");
    ck_assert_int_ge(ilpm_reader_offset(r, NULL), 65536);
    ck_assert_int_lt(ilpm_reader_offset(r, NULL), (int64_t)n);
    ilpm_reader_free(r);
    free(big);
}
END_TEST

/* One status in the error record: the watch fills it, an output's
 * failure is marked as such, and it tells a run's outcome and whose a
 * failure is. */
START_TEST(test_err_rc)
{
    ilpm_err err = {0};
    ck_assert_int_eq(err.rc, ILPM_OK);
    ck_assert_int_eq(ilpm_err_input(&err, "bad %d", 1), -1);
    ck_assert_int_eq(err.rc, ILPM_E_INPUT);
    ck_assert_int_eq(ilpm_err_io(&err), -1);
    ck_assert_int_eq(err.rc, ILPM_E_IO);
    ck_assert_str_eq(err.msg, "bad 1"); /* the message stays */
    ck_assert_int_eq(ilpm_err_io(NULL), -1);
    ilpm_watch w;
    ilpm_watch_until(&w, ilpm_now() - 1, NULL);
    ck_assert_int_eq(ilpm_watch_poll(&w, "testing", &err), -1);
    ck_assert_int_eq(err.rc, ILPM_E_TIMEOUT);
    ck_assert_str_eq(err.msg, "time limit reached while testing");
    ck_assert(ilpm_watch_left(&w) < 0);
    ilpm_watch_until(&w, 0, NULL);
    ck_assert(ilpm_watch_left(&w) > 1e100); /* none */
    ilpm_watch_until(&w, ilpm_now() + 100, NULL);
    ck_assert(ilpm_watch_left(&w) > 99 && ilpm_watch_left(&w) <= 100);
    ck_assert_int_eq(ilpm_rc_outcome(ILPM_E_TIMEOUT), ILPM_TIMEOUT);
    ck_assert_int_eq(ilpm_rc_outcome(ILPM_E_INTERRUPTED), ILPM_STOPPED);
    ck_assert_int_eq(ilpm_rc_outcome(ILPM_E_NOMEM), ILPM_ERROR);
    ck_assert(ilpm_rc_users(ILPM_E_INPUT) && ilpm_rc_users(ILPM_E_LIMIT));
    ck_assert(!ilpm_rc_users(ILPM_E_NOMEM) && !ilpm_rc_users(ILPM_E_IO) &&
              !ilpm_rc_users(ILPM_E_FAIL));
    /* The options' deadline: kept when set, else made from the seconds. */
    ilpm_options o;
    ilpm_options_init(&o);
    ck_assert(ilpm_options_deadline(&o) == 0);
    o.time_limit = 50;
    double d = ilpm_options_deadline(&o), now = ilpm_now();
    ck_assert(d > now + 49 && d <= now + 50);
    o.deadline = 7;
    ck_assert(ilpm_options_deadline(&o) == 7);
    ck_assert(ilpm_options_deadline(NULL) == 0);
}
END_TEST

START_TEST(test_reader_offset)
{
    const char data[] = "a\r\nbb\n\n# c\nlast";
    ilpm_reader *r = ilpm_reader_mem("mem", data, sizeof data - 1);
    const char *line;
    size_t len;
    ilpm_err err;
    long lines = -1;
    ck_assert_int_eq(ilpm_reader_offset(r, &lines), 0);
    ck_assert_int_eq(lines, 0);
    ilpm_reader_unread(r); /* nothing read: nothing to give back */
    ck_assert_int_eq(ilpm_reader_offset(r, &lines), 0);
    ck_assert_int_eq(ilpm_reader_line(r, &line, &len, &err), 1);
    ck_assert_int_eq(ilpm_reader_offset(r, &lines), 3); /* past the CRLF */
    ck_assert_int_eq(lines, 1);
    ck_assert_int_eq(ilpm_reader_line(r, &line, &len, &err), 1);
    ck_assert_str_eq(line, "bb");
    ck_assert_int_eq(ilpm_reader_offset(r, NULL), 6);
    /* A line given back is where the reader stands again. */
    ilpm_reader_unread(r);
    ck_assert_int_eq(ilpm_reader_offset(r, &lines), 3);
    ck_assert_int_eq(lines, 1);
    ck_assert_int_eq(ilpm_reader_line(r, &line, &len, &err), 1);
    ck_assert_str_eq(line, "bb");
    ck_assert_int_eq(ilpm_reader_offset(r, &lines), 6);
    ck_assert_int_eq(lines, 2);
    while (ilpm_reader_line(r, &line, &len, &err) == 1)
        ;
    ck_assert_str_eq(line, "last");
    ck_assert_int_eq(ilpm_reader_offset(r, &lines), (int64_t)sizeof data - 1);
    ck_assert_int_eq(lines, 5);
    ilpm_reader_free(r);
}
END_TEST

/* A file reopened at a position that ilpm_reader_offset gave reads on
 * with the same line numbers, also in messages. */
START_TEST(test_reader_open_at)
{
    char path[] = "/tmp/ilpm-check-util-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "wb");
    ck_assert_ptr_nonnull(f);
    /* Line 4 holds a NUL byte at column 4; the file ends without LF. */
    static const char text[] = "one\ntwo\r\n\nbad\0x\nfive\nsix";
    ck_assert_uint_eq(fwrite(text, 1, sizeof text - 1, f), sizeof text - 1);
    ck_assert_int_eq(fclose(f), 0);

    const char *line;
    size_t len;
    ilpm_err err;
    long lines;
    ilpm_reader *r = ilpm_reader_open(path, &err);
    ck_assert_ptr_nonnull(r);
    ck_assert_int_eq(ilpm_reader_line(r, &line, &len, &err), 1);
    ck_assert_int_eq(ilpm_reader_line(r, &line, &len, &err), 1);
    ck_assert_int_eq(ilpm_reader_line(r, &line, &len, &err), 1);
    ilpm_reader_unread(r);
    int64_t at = ilpm_reader_offset(r, &lines);
    ck_assert_int_eq(at, 9);
    ck_assert_int_eq(lines, 2);
    ck_assert_int_eq(ilpm_reader_line(r, &line, &len, &err), 1);
    ck_assert_int_eq(ilpm_reader_line(r, &line, &len, &err), -1);
    char first[sizeof err.msg];
    snprintf(first, sizeof first, "%s", err.msg);
    ilpm_reader_free(r);

    r = ilpm_reader_open_at(path, NULL, at, lines, &err);
    ck_assert_ptr_nonnull(r);
    ck_assert_int_eq(ilpm_reader_offset(r, &lines), 9);
    ck_assert_int_eq(lines, 2);
    ck_assert_int_eq(ilpm_reader_line(r, &line, &len, &err), 1);
    ck_assert_str_eq(line, "");
    ck_assert_int_eq(ilpm_reader_lineno(r), 3);
    ck_assert_int_eq(ilpm_reader_line(r, &line, &len, &err), -1);
    ck_assert_str_eq(err.msg, first);
    char want[600];
    snprintf(want, sizeof want, "%s:4:4: NUL byte in a text line", path);
    ck_assert_str_eq(err.msg, want);
    at = ilpm_reader_offset(r, &lines);
    ck_assert_int_eq(at, 16);
    ck_assert_int_eq(lines, 4);
    ilpm_reader_free(r);

    /* Another name in messages; the last line has no line end. */
    r = ilpm_reader_open_at(path, "input.txt", 21, 5, &err);
    ck_assert_ptr_nonnull(r);
    ck_assert_str_eq(ilpm_reader_name(r), "input.txt");
    ck_assert_int_eq(ilpm_reader_line(r, &line, &len, &err), 1);
    ck_assert_str_eq(line, "six");
    ilpm_reader_error(r, &err, 2, "bad %s", "six");
    ck_assert_str_eq(err.msg, "input.txt:6:2: bad six");
    ck_assert_int_eq(ilpm_reader_line(r, &line, &len, &err), 0);
    ck_assert_int_eq(ilpm_reader_offset(r, &lines), 24);
    ck_assert_int_eq(lines, 6);
    ilpm_reader_free(r);

    /* Past the end is the end; a bad position or file is an error. */
    r = ilpm_reader_open_at(path, NULL, 100, 9, &err);
    ck_assert_ptr_nonnull(r);
    ck_assert_int_eq(ilpm_reader_line(r, &line, &len, &err), 0);
    ilpm_reader_free(r);
    ck_assert_ptr_null(ilpm_reader_open_at(path, NULL, -1, 0, &err));
    remove(path);
    ck_assert_ptr_null(ilpm_reader_open_at(path, "gone.txt", 9, 2, &err));
    ck_assert_ptr_nonnull(strstr(err.msg, "gone.txt: cannot open"));
}
END_TEST

/* A puzzle's rows: its values read by them, defaults and ranges
 * included. */
static const char *const ch[] = {"a", "bb", NULL};
static const ilpm_opt rows[] = {
    {.name = "n",
     .arg = "N",
     .type = ILPM_OPT_INT,
     .lo = 1,
     .hi = 10,
     .def = "8",
     .help = "n"},
    {.name = "m",
     .arg = "M",
     .type = ILPM_OPT_INT,
     .lo = 1,
     .hi = 10,
     .help = "m"},
    {.name = "f",
     .arg = "F",
     .type = ILPM_OPT_CHOICE,
     .def = "bb",
     .choices = ch,
     .help = "f"},
    {.name = "g",
     .arg = "G",
     .type = ILPM_OPT_CHOICE,
     .choices = ch,
     .help = "g"},
    {.name = "sym", .type = ILPM_OPT_FLAG, .help = "sym"},
    {.name = NULL},
};

START_TEST(test_params)
{
    ilpm_params *p = ilpm_params_new();
    ilpm_err err;
    long v;
    ck_assert_int_eq(ilpm_params_int(p, rows, "n", &v, &err), 0);
    ck_assert_int_eq(v, 8);
    ck_assert_int_eq(ilpm_params_int(NULL, rows, "n", &v, &err), 0);
    ck_assert_int_eq(v, 8);
    ck_assert_int_eq(ilpm_params_int(p, rows, "m", &v, &err), 0);
    ck_assert_int_eq(v, 0);
    ilpm_params_set(p, "n", "12");
    ck_assert_int_eq(ilpm_params_int(p, rows, "n", &v, &err), -1);
    ck_assert_str_eq(err.msg, "--n: '12' is too large (at most 10)");
    ilpm_params_set(p, "n", "7x");
    ck_assert_int_eq(ilpm_params_int(p, rows, "n", &v, &err), -1);
    ilpm_params_set(p, "n", "7");
    ck_assert_int_eq(ilpm_params_int(p, rows, "n", &v, &err), 0);
    ck_assert_int_eq(v, 7);
    /* A name the table does not hold is the puzzle's bug. */
    ck_assert_int_eq(ilpm_params_int(p, rows, "x", &v, &err), -1);
    ck_assert_int_eq(err.rc, ILPM_E_FAIL);
    ilpm_params_set(p, "sym", NULL);
    ck_assert_int_eq(ilpm_params_has(p, "sym"), 1);
    ck_assert_str_eq(ilpm_params_get(p, "sym"), "");
    int k;
    ck_assert_int_eq(ilpm_params_choice(p, rows, "f", &k, &err), 0);
    ck_assert_int_eq(k, 1);
    ck_assert_int_eq(ilpm_params_choice(p, rows, "g", &k, &err), 0);
    ck_assert_int_eq(k, -1);
    ilpm_params_set(p, "f", "a");
    ck_assert_int_eq(ilpm_params_choice(p, rows, "f", &k, &err), 0);
    ck_assert_int_eq(k, 0);
    ilpm_params_set(p, "f", "c");
    ck_assert_int_eq(ilpm_params_choice(p, rows, "f", &k, &err), -1);
    ck_assert_str_eq(err.msg, "--f: expected one of a, bb, got 'c'");
    ilpm_params *q = ilpm_params_copy(p);
    ck_assert_uint_eq(ilpm_params_count(q), 3);
    ck_assert_str_eq(ilpm_params_get(q, "f"), "c");
    ilpm_params_free(q);
    ilpm_params_free(p);
}
END_TEST

/* The one check and setter of every table: the same words for every
 * option, whatever its table. */
struct fields {
    int flag, on, choice;
    int64_t n;
    double d;
    const char *text;
};
#define F(x) offsetof(struct fields, x)
static const ilpm_opt frows[] = {
    {.name = "flag", .type = ILPM_OPT_FLAG, .offset = F(flag)},
    {.name = "no-on",
     .type = ILPM_OPT_FLAG,
     .flags = ILPM_OPT_OFF,
     .offset = F(on)},
    {.name = "choice",
     .type = ILPM_OPT_CHOICE,
     .def = "a",
     .choices = ch,
     .offset = F(choice)},
    {.name = "n",
     .arg = "N",
     .type = ILPM_OPT_INT,
     .lo = -2,
     .hi = 5,
     .def = "3",
     .offset = F(n)},
    {.name = "time",
     .arg = "S",
     .type = ILPM_OPT_REAL,
     .hi = 100,
     .unit = "seconds",
     .offset = F(d)},
    {.name = "mem",
     .arg = "MB",
     .type = ILPM_OPT_REAL,
     .lo = 16,
     .hi = 100,
     .unit = "megabytes",
     .offset = F(d)},
    {.name = "text",
     .arg = "T",
     .type = ILPM_OPT_TEXT,
     .def = "x",
     .offset = F(text)},
    {.name = "list", .arg = "L", .type = ILPM_OPT_TEXT, .flags = ILPM_OPT_LIST},
    {.name = "rep",
     .arg = "R",
     .type = ILPM_OPT_TEXT,
     .flags = ILPM_OPT_REPEAT},
    {.name = NULL},
};

static const char *set_msg(const char *name, const char *v, struct fields *f)
{
    static ilpm_err err;
    err.msg[0] = '\0';
    ilpm_opt_set(ilpm_opt_find(frows, name), f, v, &err);
    return err.msg;
}

START_TEST(test_opt_rows)
{
    struct fields f, d;
    memset(&d, 0, sizeof d);
    ck_assert_int_eq(ilpm_opt_defaults(frows, &d, NULL), 0);
    ck_assert_int_eq(d.flag, 0);
    ck_assert_int_eq(d.on, 1);
    ck_assert_int_eq(d.choice, 0);
    ck_assert_int_eq(d.n, 3);
    ck_assert_str_eq(d.text, "x");
    f = d;
    ck_assert_str_eq(set_msg("flag", NULL, &f), "");
    ck_assert_str_eq(set_msg("no-on", NULL, &f), "");
    ck_assert_int_eq(f.flag, 1);
    ck_assert_int_eq(f.on, 0);
    f = d;
    ck_assert_str_eq(set_msg("flag", "1", &f), "option --flag takes no value");
    ck_assert_str_eq(set_msg("n", NULL, &f), "option --n needs a value");
    ck_assert_str_eq(set_msg("n", "6", &f),
                     "--n: '6' is too large (at most 5)");
    ck_assert_str_eq(set_msg("n", "-3", &f),
                     "--n: expected an integer from -2 to 5, got '-3'");
    ck_assert_str_eq(set_msg("choice", "c", &f),
                     "--choice: expected one of a, bb, got 'c'");
    ck_assert_str_eq(set_msg("time", "0", &f),
                     "--time: expected seconds > 0, got '0'");
    ck_assert_str_eq(set_msg("mem", "15.5", &f),
                     "--mem: expected megabytes >= 16, got '15.5'");
    ck_assert_str_eq(set_msg("mem", "101", &f),
                     "--mem: '101' is too large (at most 100)");
    /* A refused value leaves the fields as they were. */
    ck_assert_int_eq(memcmp(&f, &d, sizeof f), 0);
    ck_assert_str_eq(set_msg("n", "-2", &f), "");
    ck_assert_int_eq(f.n, -2);
    ck_assert_str_eq(set_msg("mem", "16", &f), "");
    ck_assert(f.d == 16);
    ck_assert_str_eq(set_msg("choice", "bb", &f), "");
    ck_assert_int_eq(f.choice, 1);
    ck_assert_int_eq(ilpm_opt_check(&frows[3], "9", NULL), -1);
    ck_assert_int_eq(ilpm_opt_check(&frows[3], "4", NULL), 0);
    ck_assert_ptr_null(ilpm_opt_find(frows, "nothing"));
    ck_assert_ptr_null(ilpm_opt_find(NULL, "n"));
    /* Lists add up with commas, repeated options with ILPM_OPT_SEP. */
    char *s = ilpm_opt_join(&frows[7], "a=1", "b=2");
    ck_assert_str_eq(s, "a=1,b=2");
    free(s);
    s = ilpm_opt_join(&frows[7], "", "b=2");
    ck_assert_str_eq(s, "b=2");
    free(s);
    s = ilpm_opt_join(&frows[8], "x.dat", "y,z.dat");
    ck_assert_str_eq(s, "x.dat\ny,z.dat");
    free(s);
    /* A default that does not pass its own row is a bug in the table. */
    static const ilpm_opt bad[] = {{.name = "n",
                                    .arg = "N",
                                    .type = ILPM_OPT_INT,
                                    .lo = 1,
                                    .hi = 5,
                                    .def = "9",
                                    .offset = F(n)},
                                   {.name = NULL}};
    ilpm_err err;
    ck_assert_int_eq(ilpm_opt_defaults(bad, &f, &err), -1);
}
END_TEST

START_TEST(test_rng)
{
    ilpm_rng a, b;
    ilpm_rng_seed(&a, 1);
    ilpm_rng_seed(&b, 1);
    for (int i = 0; i < 100; i++)
        ck_assert_uint_eq(ilpm_rng_next(&a), ilpm_rng_next(&b));
    int seen[7] = {0};
    for (int i = 0; i < 7000; i++)
        seen[ilpm_rng_below(&a, 7)]++;
    for (int i = 0; i < 7; i++)
        ck_assert_int_gt(seen[i], 800);
    /* splitmix64's first output for seed 0, as published. */
    ilpm_rng_seed(&a, 0);
    ck_assert_uint_eq(ilpm_rng_next(&a), 0xe220a8397b1dcdafull);
}
END_TEST

/* ------------------------------------------------------------------ */
/* ilpm_out                                                             */

static char outdir[64];

static void outdir_make(void)
{
    snprintf(outdir, sizeof outdir, "/tmp/check_util.XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(outdir));
}

static void outdir_remove(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", outdir);
    ck_assert_int_eq(system(cmd), 0);
}

static const char *in_outdir(char *buf, size_t size, const char *name)
{
    snprintf(buf, size, "%s/%s", outdir, name);
    return buf;
}

static void put_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    ck_assert_int_eq(fclose(f), 0);
}

/* The file's text (up to 255 bytes), "" if it cannot be read. */
static const char *file_text(const char *path)
{
    static char buf[256];
    buf[0] = '\0';
    FILE *f = fopen(path, "r");
    if (f) {
        size_t n = fread(buf, 1, sizeof buf - 1, f);
        buf[n] = '\0';
        fclose(f);
    }
    return buf;
}

/* Entries in outdir: temporaries left behind would show here. */
static int outdir_entries(void)
{
    DIR *d = opendir(outdir);
    ck_assert_ptr_nonnull(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

static void out_text(ilpm_out *o, const char *text)
{
    ck_assert_int_eq(ilpm_out_write(o, text, strlen(text)), 0);
}

/* A UTF-8 byte-order mark at the start is skipped; one further on is
 * text; the offsets still count it, so a reader opened again at an
 * offset starts where the first stood. */
START_TEST(test_reader_bom)
{
    const char data[] = "\xEF\xBB\xBF"
                        "4 x\n\xEF\xBB\xBF"
                        "5\n";
    ilpm_reader *r = ilpm_reader_mem("mem", data, sizeof data - 1);
    const char *line;
    size_t len;
    ilpm_err err;
    ck_assert_int_eq(ilpm_reader_bom(r), 0);
    ck_assert_int_eq(ilpm_reader_line(r, &line, &len, &err), 1);
    ck_assert_str_eq(line, "4 x");
    ck_assert_uint_eq(len, 3);
    ck_assert_int_eq(ilpm_reader_bom(r), 1);
    ilpm_reader_error(r, &err, 3, "bad");
    ck_assert_str_eq(err.msg, "mem:1:3: bad");
    ck_assert_int_eq(ilpm_reader_offset(r, NULL), 7);
    ck_assert_int_eq(ilpm_reader_line(r, &line, &len, &err), 1);
    ck_assert_str_eq(line, "\xEF\xBB\xBF"
                           "5");
    ilpm_reader_free(r);
    r = ilpm_reader_mem("mem", "\xEF\xBB", 2); /* half a mark: text */
    ck_assert_int_eq(ilpm_reader_line(r, &line, &len, &err), 1);
    ck_assert_uint_eq(len, 2);
    ck_assert_int_eq(ilpm_reader_bom(r), 0);
    ilpm_reader_free(r);
}
END_TEST

/* An output is checked before the run: never one of the inputs, by
 * name, link or hard link; its folder must be there. */
START_TEST(test_out_check)
{
    outdir_make();
    char in[128], lnk[128], hard[128], out[128], none[128];
    in_outdir(in, sizeof in, "in.txt");
    in_outdir(lnk, sizeof lnk, "link.txt");
    in_outdir(hard, sizeof hard, "hard.txt");
    in_outdir(out, sizeof out, "out.txt");
    in_outdir(none, sizeof none, "none/out.txt");
    put_file(in, "4\n");
    ck_assert_int_eq(symlink("in.txt", lnk), 0);
    ck_assert_int_eq(link(in, hard), 0);
    const char *inputs[] = {"-", in};
    ilpm_err err;
    ck_assert_int_eq(ilpm_out_check(out, inputs, 2, &err), 0);
    ck_assert_int_eq(ilpm_out_check("-", inputs, 2, &err), 0);
    ck_assert_int_eq(ilpm_out_check("/dev/null", inputs, 2, &err), 0);
    ck_assert_int_eq(ilpm_out_check(in, inputs, 2, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.msg, "is also an input"));
    ck_assert_int_eq(ilpm_out_check(lnk, inputs, 2, &err), -1);
    ck_assert_int_eq(ilpm_out_check(hard, inputs, 2, &err), -1);
    ck_assert_int_eq(ilpm_out_check(none, inputs, 2, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.msg, "no folder"));
    ck_assert_int_eq(ilpm_out_check("/tmp", inputs, 2, &err), -1);
    ck_assert_str_eq(file_text(in), "4\n");
    remove(lnk);
    remove(hard);
    remove(in);
    outdir_remove();
}
END_TEST

START_TEST(test_out_replace)
{
    outdir_make();
    char path[128];
    in_outdir(path, sizeof path, "r.txt");
    put_file(path, "old\n");
    ck_assert_int_eq(chmod(path, 0640), 0);
    ilpm_err err;
    ilpm_out *o = ilpm_out_open(path, ILPM_OUT_REPLACE, &err);
    ck_assert_msg(o != NULL, "%s", err.msg);
    out_text(o, "new\n");
    /* Nothing shows under the name before the commit... */
    ck_assert_str_eq(file_text(path), "old\n");
    ck_assert_int_eq(outdir_entries(), 2);
    ck_assert_int_eq(ilpm_out_commit(o, &err), 0);
    /* ...and all of it after, with the old permission bits. */
    ck_assert_str_eq(file_text(path), "new\n");
    ck_assert_int_eq(outdir_entries(), 1);
    struct stat st;
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert_int_eq(st.st_mode & 07777, 0640);
    /* Given up: the old file stays, the temporary goes. */
    o = ilpm_out_open(path, ILPM_OUT_REPLACE, &err);
    ck_assert_ptr_nonnull(o);
    out_text(o, "lost\n");
    ilpm_out_abort(o);
    ilpm_out_abort(NULL);
    ck_assert_str_eq(file_text(path), "new\n");
    ck_assert_int_eq(outdir_entries(), 1);
    /* A new file gets the bits the umask allows. */
    mode_t old = umask(027);
    in_outdir(path, sizeof path, "fresh.txt");
    o = ilpm_out_open(path, ILPM_OUT_REPLACE, &err);
    ck_assert_ptr_nonnull(o);
    ck_assert_int_eq(ilpm_out_commit(o, &err), 0);
    umask(old);
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert_int_eq(st.st_mode & 07777, 0640);
    ck_assert_str_eq(file_text(path), "");
    outdir_remove();
}
END_TEST

/* A write that fails (here: past the file size limit) leaves the old
 * file untouched and no temporary behind, and says why. */
START_TEST(test_out_write_fails)
{
    outdir_make();
    char path[128];
    in_outdir(path, sizeof path, "r.txt");
    put_file(path, "old\n");
    signal(SIGXFSZ, SIG_IGN);
    struct rlimit was, lim;
    ck_assert_int_eq(getrlimit(RLIMIT_FSIZE, &was), 0);
    lim = was;
    lim.rlim_cur = 4096;
    ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &lim), 0);
    ilpm_err err;
    ilpm_out *o = ilpm_out_open(path, ILPM_OUT_REPLACE, &err);
    ck_assert_ptr_nonnull(o);
    char block[1000];
    memset(block, 'x', sizeof block);
    for (int i = 0; i < 10; i++)
        ilpm_out_write(o, block, sizeof block);
    ck_assert_int_eq(ilpm_out_commit(o, &err), -1);
    ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &was), 0);
    signal(SIGXFSZ, SIG_DFL);
    char want[256];
    snprintf(want, sizeof want, "%s: %s", path, strerror(EFBIG));
    ck_assert_str_eq(err.msg, want);
    ck_assert_str_eq(file_text(path), "old\n");
    ck_assert_int_eq(outdir_entries(), 1);
    /* A full device says so too. */
    o = ilpm_out_open("/dev/full", ILPM_OUT_REPLACE, &err);
    ck_assert_ptr_nonnull(o);
    out_text(o, "x");
    ck_assert_int_eq(ilpm_out_commit(o, &err), -1);
    snprintf(want, sizeof want, "/dev/full: %s", strerror(ENOSPC));
    ck_assert_str_eq(err.msg, want);
    /* A folder that is not there. */
    in_outdir(path, sizeof path, "no/r.txt");
    ck_assert_ptr_null(ilpm_out_open(path, ILPM_OUT_REPLACE, &err));
    ck_assert_ptr_nonnull(strstr(err.msg, path));
    ck_assert_ptr_nonnull(strstr(err.msg, strerror(ENOENT)));
    outdir_remove();
}
END_TEST

/* A symbolic link is written through: the link stays, its target gets
 * the text (and is made when the link dangles). */
START_TEST(test_out_links)
{
    outdir_make();
    char link[128], link2[128], target[128];
    in_outdir(target, sizeof target, "t.txt");
    in_outdir(link, sizeof link, "l.txt");
    in_outdir(link2, sizeof link2, "l2.txt");
    ck_assert_int_eq(symlink("t.txt", link), 0); /* dangling, relative */
    ck_assert_int_eq(symlink(link, link2), 0);   /* a link to the link */
    ilpm_err err;
    for (int round = 0; round < 2; round++) {
        ilpm_out *o = ilpm_out_open(round ? link : link2, 0, &err);
        ck_assert_msg(o != NULL, "%s", err.msg);
        out_text(o, round ? "two\n" : "one\n");
        ck_assert_int_eq(ilpm_out_commit(o, &err), 0);
        struct stat st;
        ck_assert_int_eq(lstat(link, &st), 0);
        ck_assert(S_ISLNK(st.st_mode));
        ck_assert_int_eq(lstat(link2, &st), 0);
        ck_assert(S_ISLNK(st.st_mode));
        ck_assert_str_eq(file_text(target), round ? "two\n" : "one\n");
        ck_assert_int_eq(outdir_entries(), 3);
    }
    outdir_remove();
}
END_TEST

/* Standard output and descriptors are written as they are. */
START_TEST(test_out_streams)
{
    ilpm_err err;
    ilpm_out *o = ilpm_out_open("-", 0, &err);
    ck_assert_ptr_eq(ilpm_out_file(o), stdout);
    ck_assert_str_eq(ilpm_out_path(o), "standard output");
    ck_assert_int_eq(ilpm_out_commit(o, &err), 0);
    o = ilpm_out_open("/dev/stdout", 0, &err);
    ck_assert_ptr_eq(ilpm_out_file(o), stdout);
    ilpm_out_abort(o);
    /* /dev/fd/N: written through N, which stays open. */
    int p[2];
    ck_assert_int_eq(pipe(p), 0);
    char path[64], buf[64];
    snprintf(path, sizeof path, "/dev/fd/%d", p[1]);
    o = ilpm_out_open(path, 0, &err);
    ck_assert_msg(o != NULL, "%s", err.msg);
    out_text(o, "abc");
    ck_assert_int_eq(ilpm_out_commit(o, &err), 0);
    /* A writer that needs a name writes a scratch file that the commit
     * copies to the output, then removes. */
    o = ilpm_out_open(path, 0, &err);
    ck_assert_ptr_nonnull(o);
    const char *name = ilpm_out_name(o, &err);
    ck_assert_ptr_nonnull(name);
    char scratch[256];
    snprintf(scratch, sizeof scratch, "%s", name);
    put_file(scratch, "def");
    ck_assert_int_eq(ilpm_out_commit(o, &err), 0);
    ck_assert_int_eq(access(scratch, F_OK), -1);
    ck_assert_int_eq(write(p[1], "g", 1), 1);
    close(p[1]);
    ssize_t n = read(p[0], buf, sizeof buf - 1);
    ck_assert_int_eq(n, 7);
    buf[n] = '\0';
    ck_assert_str_eq(buf, "abcdefg");
    close(p[0]);
    ck_assert_ptr_null(ilpm_out_open("/dev/fd/999", 0, &err));
    ck_assert_str_eq(err.msg, "/dev/fd/999: Bad file descriptor");
}
END_TEST

/* A name-writer of a regular file writes the temporary itself, beside
 * the target; in-place outputs write and append where they are. */
START_TEST(test_out_name_and_in_place)
{
    outdir_make();
    char path[128];
    in_outdir(path, sizeof path, "n.txt");
    ilpm_err err;
    ilpm_out *o = ilpm_out_open(path, 0, &err);
    const char *name = ilpm_out_name(o, &err);
    ck_assert_int_eq(strncmp(name, path, strlen(path)), 0);
    put_file(name, "by name\n");
    ck_assert_int_eq(ilpm_out_commit(o, &err), 0);
    ck_assert_str_eq(file_text(path), "by name\n");
    ck_assert_int_eq(outdir_entries(), 1);
    o = ilpm_out_open(path, ILPM_OUT_APPEND, &err);
    out_text(o, "more\n");
    ck_assert_int_eq(ilpm_out_flush(o, &err), 0);
    ck_assert_str_eq(file_text(path), "by name\nmore\n");
    ck_assert_int_eq(ilpm_out_commit(o, &err), 0);
    o = ilpm_out_open(path, ILPM_OUT_IN_PLACE, &err);
    ck_assert_str_eq(file_text(path), "");
    ilpm_out_abort(o);
    ck_assert_int_eq(outdir_entries(), 1);
    o = ilpm_out_open("/dev/full", ILPM_OUT_IN_PLACE, &err);
    out_text(o, "x");
    ck_assert_int_eq(ilpm_out_flush(o, &err), -1);
    ilpm_out_abort(o);
    outdir_remove();
}
END_TEST

/* Every _free of the library, the drivers' destroy and each puzzle's
 * free_instance and free_solution take NULL, as free does, so that
 * cleanup paths need no checks. */
START_TEST(test_free_null)
{
    ilpm_buf_free(NULL);
    ilpm_reader_free(NULL);
    ilpm_params_free(NULL);
    ilpm_model_free(NULL);
    ilpm_propagator_free(NULL);
    ilpm_stats_free(NULL);
    ilpm_cnf_release(NULL);
    ilpm_glpk_ops.destroy(NULL);
    ilpm_sat_ops.destroy(NULL);
    ilpm_solver_free(NULL);
    ilpm_result_free(NULL);
    ilpm_shape_cache_free(NULL);
    ilpm_comparison_free(NULL);
    ilpm_out_abort(NULL);
    for (int i = 0; ilpm_puzzles[i]; i++) {
        ilpm_puzzles[i]->free_instance(NULL);
        ilpm_puzzles[i]->free_solution(NULL);
    }
}
END_TEST

START_TEST(test_show_char)
{
    char b[8];
    ck_assert_str_eq(ilpm_show_char('x', b, sizeof b), "'x'");
    ck_assert_str_eq(ilpm_show_char(' ', b, sizeof b), "' '");
    ck_assert_str_eq(ilpm_show_char('\'', b, sizeof b), "'\\x27'");
    ck_assert_str_eq(ilpm_show_char('\t', b, sizeof b), "'\\x09'");
    ck_assert_str_eq(ilpm_show_char('\x7f', b, sizeof b), "'\\x7f'");
    ck_assert_str_eq(ilpm_show_char((char)0xe9, b, sizeof b), "'\\xe9'");
    ck_assert_str_eq(ilpm_show_char('\\', b, sizeof b), "'\\x5c'");
    ck_assert_str_eq(ilpm_show_char('\033', b, sizeof b), "'\\x1b'");
}
END_TEST

/* A token or a field as every reader's message shows it: control bytes
 * and bytes of no character escaped, whole UTF-8 characters kept, cut
 * after ILPM_SHOW_MAX bytes or where the buffer ends. */
START_TEST(test_show)
{
    char b[ILPM_SHOW_SIZE];
    static const char *const cases[][2] = {
        {"7H", "7H"},
        {"\033[31mRED", "\\x1b[31mRED"},
        {"a'b\\c", "a\\x27b\\x5cc"},
        {"7\xe2\x99\xa5", "7\xe2\x99\xa5"}, /* 7 and a heart: kept */
        {"7\xff", "7\\xff"},
        {"\xe2\x99", "\\xe2\\x99"}, /* a character cut short */
        {"", ""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        ck_assert_str_eq(
            ilpm_show(cases[i][0], strlen(cases[i][0]), b, sizeof b),
            cases[i][1]);
    char lng[100];
    memset(lng, 'x', sizeof lng);
    ck_assert_uint_eq(strlen(ilpm_show(lng, sizeof lng, b, sizeof b)),
                      ILPM_SHOW_MAX + 3);
    ck_assert_str_eq(b + ILPM_SHOW_MAX, "...");
    /* Every byte escaped still fits ILPM_SHOW_SIZE; a small buffer cuts. */
    memset(lng, 1, sizeof lng);
    ck_assert_uint_eq(strlen(ilpm_show(lng, sizeof lng, b, sizeof b)),
                      4 * ILPM_SHOW_MAX + 3);
    char small[10];
    ck_assert_str_eq(ilpm_show("\001\002\003", 3, small, sizeof small),
                     "\\x01...");
}
END_TEST

START_TEST(test_scan_uint)
{
    static const struct {
        const char *in;
        int digits;
        long val;
    } cases[] = {
        {"", 0, 0},
        {"x1", 0, 0},
        {"0", 1, 0},
        {"007 ", 3, 7},
        {"42x", 2, 42},
        /* Past LONG_MAX the value stays there: it never wraps. */
        {"123456789012345678901234567890", 30, LONG_MAX},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *s = cases[i].in;
        long v = -1;
        ck_assert_int_eq(ilpm_scan_uint(&s, &v), cases[i].digits);
        ck_assert_int_eq(v, cases[i].val);
        ck_assert_ptr_eq(s, cases[i].in + cases[i].digits);
    }
    /* LONG_MAX itself, and one more (LONG_MAX ends in 7). */
    char max[32];
    int len = snprintf(max, sizeof max, "%ld", LONG_MAX);
    for (int more = 0; more < 2; more++) {
        max[len - 1] = (char)('7' + more);
        const char *s = max;
        long v = -1;
        ck_assert_int_eq(ilpm_scan_uint(&s, &v), len);
        ck_assert_int_eq(v, LONG_MAX);
    }
}
END_TEST

/* Numbers as option values: a number too large to hold is called too
 * large with the text as given, never clamped; inf, nan, hexadecimal,
 * blanks and -0 get a message that fits. */
START_TEST(test_parse_numbers)
{
    static const struct {
        const char *text;
        const char *msg; /* NULL: accepted */
    } ints[] = {
        {"7", NULL},
        {"+7", NULL},
        {"-0", NULL},
        {"11", "--n: '11' is too large (at most 10)"},
        {"99999999999999999999",
         "--n: '99999999999999999999' is too large (at most 10)"},
        {"-99999999999999999999", "--n: expected an integer from 0 to 10, got "
                                  "'-99999999999999999999'"},
        {"0x5", "--n: expected an integer from 0 to 10, got '0x5'"},
        {" 5", "--n: expected an integer from 0 to 10, got ' 5'"},
        {"5e0", "--n: expected an integer from 0 to 10, got '5e0'"},
        {"", "--n: expected an integer from 0 to 10, got ''"},
    };
    for (size_t i = 0; i < sizeof ints / sizeof *ints; i++) {
        ilpm_err err = {0};
        int64_t x = -1;
        int rc = ilpm_parse_int("n", ints[i].text, 0, 10, &x, &err);
        ck_assert_int_eq(rc, ints[i].msg ? -1 : 0);
        if (ints[i].msg)
            ck_assert_str_eq(err.msg, ints[i].msg);
        else
            ck_assert(x >= 0 && x <= 10);
    }
    static const struct {
        const char *text;
        const char *msg;
    } reals[] = {
        {"0.5", NULL},
        {"1e3", NULL},
        {".5", NULL},
        {"1e9", NULL},
        {"99999999999999999999",
         "--t: '99999999999999999999' is too large (at most 1000000000)"},
        {"1e308", "--t: '1e308' is too large (at most 1000000000)"},
        {"1e999", "--t: '1e999' is too large (at most 1000000000)"},
        {"inf", "--t: 'inf' is too large (at most 1000000000; leave --t "
                "out for none)"},
        {"nan", "--t: expected seconds > 0 (a decimal number), got 'nan'"},
        {"0x10", "--t: expected seconds > 0 (a decimal number), got '0x10'"},
        {"-0", "--t: expected seconds > 0, got '-0'"},
        {"0", "--t: expected seconds > 0, got '0'"},
        {"1e-400", "--t: expected seconds > 0, got '1e-400'"},
        {"1.", NULL},
        {".", "--t: expected seconds > 0 (a decimal number), got '.'"},
        {"1e", "--t: expected seconds > 0 (a decimal number), got '1e'"},
    };
    for (size_t i = 0; i < sizeof reals / sizeof *reals; i++) {
        ilpm_err err = {0};
        double d = 0;
        int rc = ilpm_parse_real("t", reals[i].text, 0, 1e9, "seconds > 0", &d,
                                 &err);
        ck_assert_msg(rc == (reals[i].msg ? -1 : 0), "%s", reals[i].text);
        if (reals[i].msg)
            ck_assert_str_eq(err.msg, reals[i].msg);
    }
}
END_TEST

/* A scaled number prints as its own decimal, every place kept, and two
 * are equal when their values are, whatever their scales. */
START_TEST(test_scaled)
{
    static const struct {
        int64_t v, scale;
        const char *text;
    } cases[] = {
        {1465, 100, "14.65"},
        {-75, 100, "-0.75"},
        {150, 100, "1.50"},
        {5223749, 1000, "5223.749"},
        {-5, 1000, "-0.005"},
        {42, 1, "42"},
        {-42, 0, "-42"},
        {INT64_MIN, 1000000000, "-9223372036.854775808"},
        {INT64_MAX, 1000000000, "9223372036.854775807"},
    };
    char buf[32];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        ck_assert_str_eq(
            ilpm_fmt_scaled(cases[i].v, cases[i].scale, buf, sizeof buf),
            cases[i].text);
    ck_assert(ilpm_scaled_equal(1150, 100, 115, 10));
    ck_assert(ilpm_scaled_equal(23000, 1000, 23, 1));
    ck_assert(ilpm_scaled_equal(23, 0, 23, 1));
    ck_assert(ilpm_scaled_equal(0, 100, 0, 1));
    ck_assert(!ilpm_scaled_equal(1465, 100, 1465, 1));
    ck_assert(!ilpm_scaled_equal(1465, 100, 1466, 100));
    ck_assert(!ilpm_scaled_equal(-75, 100, 75, 100));
}
END_TEST

START_TEST(test_gcd64)
{
    ck_assert_int_eq(ilpm_gcd64(12, 18), 6);
    ck_assert_int_eq(ilpm_gcd64(-12, 18), 6);
    ck_assert_int_eq(ilpm_gcd64(12, -18), 6);
    ck_assert_int_eq(ilpm_gcd64(0, 7), 7);
    ck_assert_int_eq(ilpm_gcd64(7, 0), 7);
    ck_assert_int_eq(ilpm_gcd64(0, 0), 0);
    ck_assert_int_eq(ilpm_gcd64((int64_t)1 << 40, (int64_t)3 << 38),
                     (int64_t)1 << 38);
}
END_TEST

/* A big block asks for huge pages, within its whole 2 MB pages
 * (madvise's VmFlags hg); a small one is left as it is.  Skipped where
 * the system has no transparent huge pages. */
START_TEST(test_mem_huge)
{
    if (!test_thp_on())
        return;
    size_t size = ILPM_MEM_HUGE_MIN + ((size_t)8 << 20);
    char *p = malloc(size);
    ck_assert_ptr_nonnull(p);
    ck_assert_int_eq(ilpm_mem_huge(p, size), 1);
    uintptr_t page = (uintptr_t)2 << 20;
    uintptr_t mid = ((uintptr_t)p + page - 1) & ~(page - 1);
    ck_assert(test_thp_marked((const void *)mid));
    ck_assert(test_thp_marked((const void *)(mid + page)));
    free(p);
    size_t small = ILPM_MEM_HUGE_MIN - 1;
    char *q = malloc(small);
    ck_assert_ptr_nonnull(q);
    ck_assert_int_eq(ilpm_mem_huge(q, small), 0);
    free(q);
    ck_assert_int_eq(ilpm_mem_huge(NULL, size), 0);
}
END_TEST

static int moment_calls;
static int on_moment(void *ctx)
{
    (void)ctx;
    moment_calls++;
    return 0;
}

/* The moment comes by the thread's CPU time: a thread that sleeps past
 * its wall time has not reached it; one that works then does. */
START_TEST(test_moment_cpu_time)
{
    moment_calls = 0;
    ilpm_watch w;
    ilpm_watch_until(&w, ilpm_now() + 60, NULL);
    ilpm_watch_moment(ilpm_now() + 0.05, on_moment, NULL);
    struct timespec nap = {0, 120 * 1000 * 1000};
    nanosleep(&nap, NULL);
    ck_assert_int_eq(ilpm_watch_check(&w), 0);
    ck_assert_int_eq(moment_calls, 0);
    ck_assert(ilpm_watch_moment_left() > 0.01);
    double t0 = ilpm_now();
    volatile uint64_t spin = 0;
    while (moment_calls == 0 && ilpm_now() - t0 < 5) {
        for (int i = 0; i < 100000; i++)
            spin += (uint64_t)i;
        ck_assert_int_eq(ilpm_watch_check(&w), 0);
    }
    ck_assert_int_eq(moment_calls, 1);
    ck_assert(ilpm_watch_moment_left() > 1e299); /* disarmed */
    ilpm_watch_moment(0, NULL, NULL);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("util");
    TCase *tc = tcase_create("util");
    tcase_add_test(tc, test_buf);
    tcase_add_test(tc, test_moment_cpu_time);
    tcase_add_test(tc, test_reader_lines);
    tcase_add_test(tc, test_reader_bad_bytes);
    tcase_add_test(tc, test_reader_missing_file);
    tcase_add_test(tc, test_reader_offset);
    tcase_add_test(tc, test_reader_watch);
    tcase_add_test(tc, test_err_rc);
    tcase_add_test(tc, test_reader_open_at);
    tcase_add_test(tc, test_reader_bom);
    tcase_add_test(tc, test_out_check);
    tcase_add_test(tc, test_out_replace);
    tcase_add_test(tc, test_out_write_fails);
    tcase_add_test(tc, test_out_links);
    tcase_add_test(tc, test_out_streams);
    tcase_add_test(tc, test_out_name_and_in_place);
    tcase_add_test(tc, test_params);
    tcase_add_test(tc, test_opt_rows);
    tcase_add_test(tc, test_rng);
    tcase_add_test(tc, test_free_null);
    tcase_add_test(tc, test_show_char);
    tcase_add_test(tc, test_show);
    tcase_add_test(tc, test_scan_uint);
    tcase_add_test(tc, test_parse_numbers);
    tcase_add_test(tc, test_scaled);
    tcase_add_test(tc, test_gcd64);
    tcase_add_test(tc, test_mem_huge);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
