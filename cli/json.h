/* json.h — the CLI's one JSON writer (cli/json.c).
 *
 * Writes one JSON value (usually an object) to a FILE*, in the compact style
 * every command uses: {"name": "x", "values": [1, 2.5, null]} followed by a
 * newline once the outermost value is complete. Commas and the ": " after a
 * key are written for the caller, so the output is always valid JSON when
 * the calls are balanced (a key before every value inside an object, no key
 * inside an array; misuse trips PROPER_ASSERT).
 *
 *     cli_json j;
 *     cli_json_init(&j, stdout);
 *     cli_json_object_begin(&j);
 *     cli_json_key_string(&j, "model", path);
 *     cli_json_key(&j, "values");
 *     cli_json_array_begin(&j);
 *     for (...) cli_json_number(&j, v[i]);
 *     cli_json_array_end(&j);
 *     cli_json_object_end(&j);      (writes the final newline)
 *
 * Conventions:
 * - Numbers are written as the shortest decimal that reads back as the same
 *   double (proper_format_double): 0.1 as 0.1, 3 as 3, 1e300 as 1e+300.
 * - Non-finite numbers (inf, -inf, NaN) have no JSON form and are written as
 *   null. A command that can produce them says in its --help what a null
 *   field means (and may add a text field such as "value_text": "Infinity").
 * - Strings are escaped: '"', '\\' and the control characters U+0000..U+001F
 *   (as \b \f \n \r \t or \u00XX); bytes that are not valid UTF-8 (stray
 *   continuation bytes, truncated or overlong sequences, surrogates, values
 *   above U+10FFFF) become U+FFFD, so any C string gives a valid JSON string.
 *   A NULL string is written as null.
 */
#ifndef PROPER_CLI_JSON_H
#define PROPER_CLI_JSON_H

#include <stddef.h>
#include <stdio.h>

/* Deepest nesting of objects and arrays. */
#define CLI_JSON_MAX_DEPTH 32

typedef struct cli_json {
    FILE *f;
    int depth;                              /* open objects and arrays */
    char kind[CLI_JSON_MAX_DEPTH];          /* '{' or '[' per level */
    unsigned char count[CLI_JSON_MAX_DEPTH]; /* 0 before the first member, else 1 */
    int have_key;                           /* a key was written; its value is due */
} cli_json;

void cli_json_init(cli_json *j, FILE *f);

void cli_json_object_begin(cli_json *j);
void cli_json_object_end(cli_json *j);
void cli_json_array_begin(cli_json *j);
void cli_json_array_end(cli_json *j);

/* The key of the next member of the current object. */
void cli_json_key(cli_json *j, const char *key);

void cli_json_string(cli_json *j, const char *s);            /* NULL -> null */
void cli_json_string_n(cli_json *j, const char *s, size_t n); /* n bytes, NULs escaped */
void cli_json_number(cli_json *j, double v);                 /* non-finite -> null */
void cli_json_int(cli_json *j, long long v);
void cli_json_uint(cli_json *j, unsigned long long v);
void cli_json_bool(cli_json *j, int v);
void cli_json_null(cli_json *j);

/* Key and value in one call. */
void cli_json_key_string(cli_json *j, const char *key, const char *s);
void cli_json_key_number(cli_json *j, const char *key, double v);
void cli_json_key_int(cli_json *j, const char *key, long long v);
void cli_json_key_uint(cli_json *j, const char *key, unsigned long long v);
void cli_json_key_bool(cli_json *j, const char *key, int v);
void cli_json_key_null(cli_json *j, const char *key);

/* 0 when every object and array was closed and the stream had no write
 * error, else -1. */
int cli_json_finish(const cli_json *j);

#endif
