/* util.h: small pieces every part of ilpm shares: a growable string
 * buffer (buf.c), a line reader that knows where it is, for
 * file:line:column messages (reader.c), the puzzle parameters collected
 * from the command line (params.c) and read by their option rows
 * (opt.c), a portable random generator (rng.c),
 * output files replaced whole or not at all (out.c), numbers (num.c). */
#ifndef ILPM_UTIL_H
#define ILPM_UTIL_H

#include "ilpm.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ------------------------------------------------------------------ */
/* Errors, the clock and the deadline watch                             */

/* Formats a message of the given rc into err (if err is not NULL)
 * and returns -1. */
int ilpm_err_fail(ilpm_err *err, ilpm_rc rc, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* The same, with rc ILPM_E_INPUT: the input or a parameter is wrong. */
int ilpm_err_input(ilpm_err *err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* The same, with rc ILPM_E_NOMEM: "out of memory ..." */
int ilpm_err_nomem(ilpm_err *err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* A deadline and a stop flag that long work polls: building a model,
 * lowering it to GLPK or CNF, feeding the solver. */
typedef struct ilpm_watch {
    double deadline;    /* ilpm_now() seconds; 0 for none            */
    volatile int *stop; /* non-zero stops the work; NULL for none    */
    unsigned tick;      /* polls since the clock was read            */
    unsigned every;     /* the clock is read every `every` polls:    */
    double read_at;     /* 256, fewer while polls are slow (err.c)   */
    int status;         /* sticky once the work has been cut short   */
} ilpm_watch;

/* 0 to go on; else -1 with err naming `what` and err->rc
 * ILPM_E_TIMEOUT or ILPM_E_INTERRUPTED (and so on every later call). */
int ilpm_watch_poll(ilpm_watch *w, const char *what, ilpm_err *err);
/* A watch until deadline (ilpm_now() seconds; <= 0: none) and stop:
 * every step of a run watches the one deadline its options carry. */
void ilpm_watch_until(ilpm_watch *w, double deadline, volatile int *stop);
/* Seconds left before w's deadline, <= 0 once it has come; a very large
 * number (1e300) when w has none.  The one conversion of the deadline to
 * seconds, for a solver that is given a duration (GLPK's tm_lim, a
 * wait): the caller takes off its own margins (ilpm_free_time). */
double ilpm_watch_left(const ilpm_watch *w);
/* Looks at the stop flag and the clock now (ilpm_watch_poll reads the
 * clock at its first call, then every 256th, or more often when 256
 * polls take milliseconds): 0 to go on, else ILPM_STOPPED or
 * ILPM_TIMEOUT, which sticks. */
int ilpm_watch_check(ilpm_watch *w);
/* A moment of the calling thread (the run layer's --backend auto): the
 * first watch of the thread that reads the clock at or past `at`
 * (ilpm_now() seconds), the thread having had as much CPU time since as
 * the wall time to `at` then was, calls fn(ctx), once, from where it polls;
 * fn's non-zero return (ILPM_STOPPED) becomes that watch's status, 0 lets the
 * work go on.  Only watches with a deadline read the clock.  at <= 0:
 * none (disarms). */
void ilpm_watch_moment(double at, int (*fn)(void *ctx), void *ctx);
/* Seconds to the thread's moment (of wall time or of the thread's CPU
 * time, whichever is more), <= 0 once it has come; 1e300 when none is
 * set. */
double ilpm_watch_moment_left(void);

/* ------------------------------------------------------------------ */
/* Option rows                                                          */

/* One row per option, one row type for every table: the solver's
 * (ilpm_options_table), the command line's, each puzzle's.  A row is the
 * one place where an option's name, value, range, default and help are
 * written: the parser, --help, the defaults and the range checks all
 * read it (as kissat's options.h). */
typedef enum ilpm_opt_type {
    ILPM_OPT_FLAG,   /* no value: its int field 1 (ILPM_OPT_OFF: 0)    */
    ILPM_OPT_INT,    /* an integer from lo to hi: an int64_t field     */
    ILPM_OPT_REAL,   /* a number of unit, > 0 and >= lo, <= hi: double */
    ILPM_OPT_CHOICE, /* one of choices: an int (enum) field, its index */
    ILPM_OPT_TEXT    /* any text, its reader checks it: const char *   */
} ilpm_opt_type;

/* ilpm_opt.flags; bits 16 and up are the table owner's */
#define ILPM_OPT_INSTANCE 1u /* gives the instance (queens --n), no FILE */
#define ILPM_OPT_PLAY 2u     /* means something to `play` only          */
#define ILPM_OPT_REPEAT 4u   /* again: values joined by ILPM_OPT_SEP    */
#define ILPM_OPT_LIST 8u     /* a comma list; again: adds to it         */
#define ILPM_OPT_OFF 16u     /* a flag that turns its field off         */
#define ILPM_OPT_LOWER 32u   /* acts on the lowering (stats, export too) */
#define ILPM_OPT_GEN 64u     /* read by a generator that solves too     */
#define ILPM_OPT_INPUT 128u  /* names a file the run reads (gmpl --data) */
#define ILPM_OPT_SEP '\n'

typedef struct ilpm_opt {
    const char *name; /* as the command line spells it, without "--"   */
    const char *arg;  /* the value in help ("N"); NULL: a flag's none,
                         a choice's names joined by '|'                */
    ilpm_opt_type type;
    int64_t lo, hi; /* ILPM_OPT_INT, ILPM_OPT_REAL                     */
    /* The default as the option would be given ("sat", "2"); NULL:
     * none, the field stays 0 (NULL, off) or a puzzle decides. */
    const char *def;
    const char *const *choices; /* ILPM_OPT_CHOICE, NULL-ended         */
    const char *unit;           /* ILPM_OPT_REAL: "seconds"            */
    unsigned flags;             /* ILPM_OPT_*                          */
    /* The verbs it goes with, in the bits of the front end that owns the
     * table (the command line's V_*); 0 in the library's and the
     * puzzles' tables, whose verbs the command line gives. */
    unsigned verbs;
    size_t offset;    /* of its field (0 for puzzles: kept as text)    */
    const char *help; /* without range and default: help adds them    */
} ilpm_opt;

/* The row named name in a table ended by a row with name NULL, or NULL
 * (table may be NULL). */
const ilpm_opt *ilpm_opt_find(const ilpm_opt *table, const char *name);
/* Checks a value (NULL: none given) against its row: 0, or -1 with err
 * (rc ILPM_E_INPUT) as "--decks: expected an integer from 1 to 8,
 * got '0'", the same words for every option of every table. */
int ilpm_opt_check(const ilpm_opt *row, const char *value, ilpm_err *err);
/* Checks value, then sets the row's field in base (the struct the table
 * describes): 0, or -1 with err and base unchanged.  A text is kept as
 * the pointer given. */
int ilpm_opt_set(const ilpm_opt *row, void *base, const char *value,
                 ilpm_err *err);
/* Sets every field of base to its row's default: 0, or -1 with err when
 * a row's default does not pass its own check (a bug in the table). */
int ilpm_opt_defaults(const ilpm_opt *table, void *base, ilpm_err *err);

/* ------------------------------------------------------------------ */
/* Growable NUL-terminated string.  A failed allocation sets oom and   */
/* leaves the text as it was; callers check oom once at the end.       */

typedef struct ilpm_buf {
    char *s;
    size_t len, cap;
    int oom;
} ilpm_buf;

void ilpm_buf_init(ilpm_buf *b);
void ilpm_buf_free(ilpm_buf *b);
void ilpm_buf_clear(ilpm_buf *b);
void ilpm_buf_put(ilpm_buf *b, const char *s, size_t n);
void ilpm_buf_puts(ilpm_buf *b, const char *s);
void ilpm_buf_putc(ilpm_buf *b, char c);
void ilpm_buf_printf(ilpm_buf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Appends s as a JSON string literal, quotes included. */
void ilpm_buf_json_str(ilpm_buf *b, const char *s);
/* Appends [v[0]+add,...,v[n-1]+add] (add turns 0-based into 1-based). */
void ilpm_buf_json_ints(ilpm_buf *b, const int *v, int n, int add);
/* Appends s as a CSV field (RFC 4180): quoted when it holds a comma, a
 * quote or a line end. */
void ilpm_buf_csv_str(ilpm_buf *b, const char *s);
/* The text so far ("" when empty; never NULL). */
const char *ilpm_buf_str(const ilpm_buf *b);
/* Takes the text out (caller frees); the buffer is left empty. */
char *ilpm_buf_take(ilpm_buf *b);

/* ------------------------------------------------------------------ */
/* Line reader over a file or a memory block.                           */

#define ILPM_LINE_MAX (1 << 20) /* longest line accepted: 1 MiB */

typedef struct ilpm_reader ilpm_reader;

/* How messages name standard input. */
#define ILPM_STDIN_NAME "<stdin>"

/* "-" reads standard input. */
ilpm_reader *ilpm_reader_open(const char *path, ilpm_err *err);
/* Opens path at byte offset as if the first `lines` lines had been read
 * already: the next line is numbered lines + 1 in messages, so a reader
 * started where another stood (see ilpm_reader_offset) reports the same
 * file:line:col.  name, if not NULL, stands for path in messages (a
 * temporary copy can speak for the input it copies).  The file must be
 * seekable unless offset is 0. */
ilpm_reader *ilpm_reader_open_at(const char *path, const char *name,
                                 int64_t offset, long lines, ilpm_err *err);
/* Reads from data[0..len) (not copied; must outlive the reader). */
ilpm_reader *ilpm_reader_mem(const char *name, const char *data, size_t len);
void ilpm_reader_free(ilpm_reader *r);
/* Next line, without its line end (LF or CRLF).  The line is
 * NUL-terminated; a NUL byte inside it is an error.  Returns 1 for a
 * line, 0 at the end, -1 on error (err filled with file:line:col). */
int ilpm_reader_line(ilpm_reader *r, const char **line, size_t *len,
                     ilpm_err *err);
/* Reads under w (NULL: none; it must outlive its use here): a line is
 * cut short when w says time or stop, -1 with err naming the file and
 * err->rc ILPM_E_TIMEOUT or ILPM_E_INTERRUPTED; the clock is read every 64 KB
 * of a line too, so that endless input (/dev/zero) is cut short as well.
 * A read a signal interrupted goes on unless w then says stop. */
void ilpm_reader_set_watch(ilpm_reader *r, ilpm_watch *w);
/* A UTF-8 byte-order mark at the start of the input is skipped: the
 * first line comes without it.  1 once one was (for those who read the
 * file again by name, as GLPK does, and must then read a copy). */
int ilpm_reader_bom(const ilpm_reader *r);
/* Gives the last line back: the next ilpm_reader_line returns it again. */
void ilpm_reader_unread(ilpm_reader *r);
/* Where the next ilpm_reader_line starts (after ilpm_reader_unread, the
 * line given back): its byte offset from where the reader started, and
 * in *lines (if not NULL) the number of lines before it.  Together they
 * are what ilpm_reader_open_at needs to read on from there later. */
int64_t ilpm_reader_offset(const ilpm_reader *r, long *lines);
long ilpm_reader_lineno(const ilpm_reader *r);
/* The position in its file of the instance being parsed (1-based; 0
 * when unknown), kept for the parser by whoever walks the file (see
 * ilpm_instances_next), so that a puzzle can label "#59" without
 * counting on its own. */
void ilpm_reader_set_index(ilpm_reader *r, long index);
long ilpm_reader_index(const ilpm_reader *r);
const char *ilpm_reader_name(const ilpm_reader *r);
/* The file the reader reads, when a reader of its own could open it
 * again from the start (for a library that reads files by name, as
 * GLPK does); NULL for standard input, memory, or a reader opened past
 * the start of its file. */
const char *ilpm_reader_path(const ilpm_reader *r);
/* Formats "name:line:col: message" into err (col 0: no column); -1. */
int ilpm_reader_error(const ilpm_reader *r, ilpm_err *err, long col,
                      const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* Same, for an explicit line number. */
int ilpm_reader_error_at(const ilpm_reader *r, ilpm_err *err, long line,
                         long col, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* 1 if the line is blank or a '#' comment (after leading blanks). */
int ilpm_line_is_blank_or_comment(const char *line);

/* ------------------------------------------------------------------ */
/* Output files (out.c).                                                */

/* Every file ilpm writes (exports, generated instances, results, plots)
 * goes through an ilpm_out, so that all of them follow the same rules:
 * - "-" is standard output, written directly: flushed and checked, never
 *   closed.  /dev/stdout, /dev/stderr, /dev/fd/N and /proc/self/fd/N are
 *   the descriptor itself, even where /dev/stdout is missing.
 * - What exists and is not a regular file (a device such as /dev/null, a
 *   FIFO) is written directly, never renamed over.
 * - A symbolic link is followed: its final target is written, and the
 *   link stays a link.
 * - A regular file or a new name is written under a unique temporary
 *   name in the same folder and renamed into place when complete.  A
 *   failed output leaves the old file as it was and no temporary behind;
 *   a replaced file keeps its permission bits; a read-only one is
 *   refused, as a plain write would be.
 * Messages name the path and the reason. */
typedef struct ilpm_out ilpm_out;

/* The whole output is written, then committed: readers never see half
 * of it (the default, flags 0). */
#define ILPM_OUT_REPLACE 0u
/* Written in place as it goes (results files, which others may read
 * while a batch runs): no temporary, truncated at open. */
#define ILPM_OUT_IN_PLACE 1u
/* In place, after what the file holds already (--resume). */
#define ILPM_OUT_APPEND 2u

/* NULL with err naming path and the reason when it cannot be opened. */
ilpm_out *ilpm_out_open(const char *path, unsigned flags, ilpm_err *err);
/* Whether path can be an output of a run that reads inputs[0..n) ("-"
 * among them: standard input), asked before anything is read or
 * written.  -1 with err when path names one of the inputs (the same
 * path, or the same file by device and inode, links followed), is a
 * folder, or is a file whose folder does not exist or cannot be written
 * (where ilpm_out_open would make its temporary).  "-", descriptors and
 * devices, written in place, are not compared with the inputs. */
int ilpm_out_check(const char *path, const char *const *inputs, int n,
                   ilpm_err *err);
/* Where to write.  Write errors need no checking on the way: they stay
 * on the stream and ilpm_out_flush or ilpm_out_commit reports them. */
FILE *ilpm_out_file(ilpm_out *o);
/* Writes data[0..len) to the stream; unlike a bare fwrite, it keeps the
 * reason of a failure for the message.  -1 on failure. */
int ilpm_out_write(ilpm_out *o, const void *data, size_t len);
/* The path as given ("standard output" for "-"), for messages. */
const char *ilpm_out_path(const ilpm_out *o);
/* For writers that need a file name (GLPK, gnuplot): a file that
 * stands for the output, to be written by name instead of through
 * ilpm_out_file.  The temporary itself when there is one; for an
 * output written directly, a scratch file in $TMPDIR whose content
 * ilpm_out_commit copies to the output.  NULL with err on failure. */
const char *ilpm_out_name(ilpm_out *o, ilpm_err *err);
/* Pushes what was written so far to the file; -1 with err if any write
 * failed.  For outputs that grow as they go (ILPM_OUT_IN_PLACE). */
int ilpm_out_flush(ilpm_out *o, ilpm_err *err);
/* Checks every write and the close, then puts the file in place.  Frees
 * o, whatever the outcome; on failure nothing is replaced and the
 * temporary is removed.  -1 with err on failure. */
int ilpm_out_commit(ilpm_out *o, ilpm_err *err);
/* Gives the output up: removes the temporary (an output written
 * directly keeps what it got) and frees o.  NULL does nothing. */
void ilpm_out_abort(ilpm_out *o);
/* Removes the temporaries of every output open now (async-signal-safe:
 * for a process about to _exit from a signal handler). */
void ilpm_out_unlink_temps(void);

/* Creates an empty file of a unique name in $TMPDIR (else /tmp), named
 * after stem, for scratch work; ilpm_temp_remove removes it and frees
 * the name (until then a hard stop's ilpm_out_unlink_temps removes it
 * too).  NULL with err on failure. */
char *ilpm_temp_file(const char *stem, ilpm_err *err);
/* Removes the file of ilpm_temp_file and frees its name; NULL does
 * nothing. */
void ilpm_temp_remove(char *path);

/* ------------------------------------------------------------------ */
/* Puzzle parameters: "--name value" pairs and "--flag"s the command    */
/* line did not consume itself.  Values are kept as strings.            */

typedef struct ilpm_params ilpm_params;

ilpm_params *ilpm_params_new(void);
void ilpm_params_free(ilpm_params *p);
/* Sets (or replaces) name = value; value NULL marks a flag. */
int ilpm_params_set(ilpm_params *p, const char *name, const char *value);
/* NULL if absent; "" for a flag. */
const char *ilpm_params_get(const ilpm_params *p, const char *name);
int ilpm_params_has(const ilpm_params *p, const char *name);
/* The option name of table (the puzzle's rows) as an integer: its value
 * in p, else its row's default (0 without one), checked against the
 * row's range: "--n: expected an integer from 1 to 1000, got 'x'".  p
 * may be NULL (no options). */
int ilpm_params_int(const ilpm_params *p, const ilpm_opt *table,
                    const char *name, long *out, ilpm_err *err);
/* The same for a choice: *out is the index of its value among the
 * row's choices, of its default when absent, -1 without one. */
int ilpm_params_choice(const ilpm_params *p, const ilpm_opt *table,
                       const char *name, int *out, ilpm_err *err);
size_t ilpm_params_count(const ilpm_params *p);
const char *ilpm_params_name_at(const ilpm_params *p, size_t i);
/* A copy with the same entries. */
ilpm_params *ilpm_params_copy(const ilpm_params *p);

/* An option that may be given again (ILPM_OPT_LIST, ILPM_OPT_REPEAT:
 * the rows themselves are in ilpm.h) given once more: old and value
 * joined, by ',' for a list (either alone when the other is empty), by
 * ILPM_OPT_SEP otherwise, malloc'd; NULL when out of memory (opt.c). */
/* The value of row's field in base as the option would be given ("seq",
 * "2000000"; a flag: "1" when given, else "0") into buf; returns what
 * snprintf returns. */
int ilpm_opt_get(const ilpm_opt *row, const void *base, char *buf, size_t size);
char *ilpm_opt_join(const ilpm_opt *row, const char *old, const char *value);

/* Numbers as option values (num.c).  The whole of s as a decimal
 * integer from lo to hi (a sign, then digits: no blanks, hexadecimal or
 * exponent): 0 and *out, or -1 with err holding "--NAME: expected an
 * integer from LO to HI, got 'S'" or, above hi (a number past int64
 * included), "--NAME: 'S' is too large (at most HI)". */
int ilpm_parse_int(const char *name, const char *s, int64_t lo, int64_t hi,
                   int64_t *out, ilpm_err *err);
/* The greatest common divisor of |a| and |b| (0 when both are 0). */
int64_t ilpm_gcd64(int64_t a, int64_t b);
/* The whole of s as a decimal number d with lo < d <= hi (digits, a
 * point, an exponent; not inf, nan, hexadecimal or -0): 0 and *out, or
 * -1 with err holding "--NAME: expected WHAT, got 'S'" or "--NAME: 'S'
 * is too large (at most HI)". */
int ilpm_parse_real(const char *name, const char *s, double lo, double hi,
                    const char *what, double *out, ilpm_err *err);

/* A scaled number as its own decimal (num.c): v / scale exactly, where
 * scale is a power of ten (<= 1: v as it is), with as many places as
 * scale has zeros ("11.55", "-0.750", "23.684").  Returns buf; 32 bytes
 * are enough. */
const char *ilpm_fmt_scaled(int64_t v, int64_t scale, char *buf, size_t size);
/* Whether a / sa and b / sb (scales as above) are the same number,
 * exactly: "11.50" at 100 is "11.5" at 10 and "23" at 1 is "23.000". */
int ilpm_scaled_equal(int64_t a, int64_t sa, int64_t b, int64_t sb);

/* Random numbers for generators and tests: splitmix64, seedable,
 * identical on every platform. */
typedef struct ilpm_rng {
    uint64_t s;
} ilpm_rng;
void ilpm_rng_seed(ilpm_rng *r, uint64_t seed);
uint64_t ilpm_rng_next(ilpm_rng *r);
/* Uniform in [0, n), n > 0. */
uint64_t ilpm_rng_below(ilpm_rng *r, uint64_t n);

/* ------------------------------------------------------------------ */
/* Pieces of the puzzles' parsers.                                     */

/* fdio.c: exactly n bytes read from fd, or written to it (socket: with
 * send, so that a reader gone is an error and no SIGPIPE); 0, or -1 at
 * an error or the end of the input. */
int ilpm_fd_read_all(int fd, void *buf, size_t n);
int ilpm_fd_write_all(int fd, const void *buf, size_t n, int socket);

/* show.c: text read from an input as every message shows it: printable
 * ASCII and whole UTF-8 characters as they are; a quote, a backslash, a
 * control byte or a byte of no valid character as \xNN; cut with "..."
 * after ILPM_SHOW_MAX bytes of t (or where out ends).  Into out
 * (ILPM_SHOW_SIZE bytes hold any); returns out. */
#define ILPM_SHOW_MAX 40
#define ILPM_SHOW_SIZE (4 * ILPM_SHOW_MAX + 8)
const char *ilpm_show(const char *t, size_t n, char *out, size_t size);
/* One byte so, in quotes: 'x', or '\xNN'.  Returns buf; 8 bytes are
 * enough. */
const char *ilpm_show_char(char ch, char *buf, size_t size);
/* Reads the run of decimal digits at *s (perhaps none) and moves *s
 * past it.  Returns the number of digits; *val is their value, held at
 * LONG_MAX when larger, so that a long run still reads as out of range
 * and never overflows. */
int ilpm_scan_uint(const char **s, long *val);

/* err.c: the seconds the process is expected to take to give its memory
 * back (its resident size at a measured rate).  Every watch counts it:
 * work stops that long before its deadline, so that a run ends within
 * its time limit, the freeing of what it built included. */
double ilpm_free_time(void);

/* Marks the failure err holds as an output's (rc ILPM_E_IO: a file
 * could not be created or written), its message kept; returns -1. */
int ilpm_err_io(ilpm_err *err);
/* 1 when a run's failure with rc is the user's to mend: the input, a
 * parameter, a limit (size, time, a stop: what the kind "limit" held),
 * or a failure that names no rc; as exit status 2 and a batch's input
 * errors count it. */
int ilpm_rc_users(ilpm_rc rc);

/* grow.c: makes *p (of *cap elements of elem bytes) hold at least need,
 * doubling the capacity (16 at first); 0, or -1 on overflow or out of
 * memory with *p and *cap unchanged.  ilpm_grow_int for an int count. */
int ilpm_grow(void **p, size_t *cap, size_t need, size_t elem);
int ilpm_grow_int(void **p, int *cap, int need, size_t elem);

/* huge.c: asks that the whole 2 MB pages inside block p of size bytes
 * be transparent huge pages (madvise MADV_HUGEPAGE), for a big array
 * read at random that lives long; blocks under ILPM_MEM_HUGE_MIN are
 * left as they are.  Call it before the block is first written (pages
 * already there stay small until the kernel's khugepaged merges them).
 * 1 when marked; 0 when not (a small block, not Linux, madvise
 * refused). */
#define ILPM_MEM_HUGE_MIN ((size_t)4 << 20)
int ilpm_mem_huge(void *p, size_t size);

/* 1 in a build under AddressSanitizer, which reserves terabytes of
 * address space: no address-space limit (--memory-limit) can be set
 * there, and tests that need one skip. */
#if defined(__SANITIZE_ADDRESS__)
#define ILPM_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ILPM_UNDER_ASAN 1
#endif
#endif
#ifndef ILPM_UNDER_ASAN
#define ILPM_UNDER_ASAN 0
#endif

#endif
