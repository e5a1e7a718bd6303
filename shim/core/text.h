/* Pure text helpers shared by the shim and the CLI: JSON escaping, UTC time
 * stamps and lexical path handling. None of them allocates, locks or reads
 * global state, so they are safe inside any hook and easy to fuzz. */
#ifndef RG_TEXT_H
#define RG_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Writes src as the inside of a JSON string: quotes, backslashes and control
 * characters escaped, bytes that are not UTF-8 replaced by U+FFFD. Never
 * splits an escape; stops early, NUL-terminated, when cap is reached.
 * Returns the length written. */
size_t rg_json_escape(char *dst, size_t cap, const char *src);

/* rg_json_escape, *len the length written; true when all of src fit and
 * it was well-formed UTF-8 throughout (rg_utf8_valid, in the same pass). */
bool rg_json_escape_utf8(char *dst, size_t cap, const char *src, size_t *len);

/* Writes src as the inside of a JSON string that keeps its bytes: as
 * rg_json_escape, but each byte that is not part of well-formed UTF-8, and
 * every '%', as %XX (a file name may be any bytes; rg_bytes_unescape reads
 * it back). SIZE_MAX, and a prefix, when it does not fit in cap bytes. */
size_t rg_json_escape_bytes(char *dst, size_t cap, const char *src);

/* Undoes rg_json_escape_bytes's %XX in place (after JSON unescaping). False
 * on a '%' not followed by two hex digits, or a NUL byte. */
bool rg_bytes_unescape(char *s);

/* Is s well-formed UTF-8 throughout? */
bool rg_utf8_valid(const char *s);

/* Writes src for a one-line message: control characters (a newline in a
 * file name) become \n, \t or \xNN, so a message stays one line; every other
 * byte is kept as given. Stops early, NUL-terminated, when cap is reached.
 * Returns the length written. */
size_t rg_line_escape(char *dst, size_t cap, const char *src);

/* "00" to "99": decimal digits two a step, as the journal's records write
 * their numbers. */
extern const char rg_digit_pairs[201];

/* "2026-11-22T07:45:12.123456789Z"; buf needs RG_TIME_LEN bytes. */
#define RG_TIME_LEN 32
void rg_format_time(int64_t ns, char *buf);

/* Writes the strings of parts, up to a NULL, one after the other: a path
 * made of parts without snprintf's format parser (the journal makes several
 * per kept file). False, and out "", when they do not fit. */
bool rg_concat_list(char *out, size_t cap, const char *const *parts);
#define rg_concat(out, cap, ...) rg_concat_list(out, cap, (const char *const[]){__VA_ARGS__, NULL})

/* "/proc/self/fd/FD", the name of one of this process's descriptors. */
#define RG_FD_LINK_MAX 32
void rg_fd_link(char out[RG_FD_LINK_MAX], int fd);

/* Joins base (absolute) and path, then folds ".", ".." and repeated slashes.
 * An absolute path ignores base. Returns false when the result does not fit. */
bool rg_path_join(char *out, size_t cap, const char *base, const char *path);

/* Is path the directory root or below it? Both absolute and normalised. */
bool rg_path_under(const char *path, const char *root);

#endif
