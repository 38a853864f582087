/* test_cli.c — the CLI's shared pieces: the JSON writer (cli/json.c) and the
 * option and number parsers and clock (cli/args.c). Expected texts are the
 * JSON grammar (RFC 8259), the UTF-8 encoding rules (RFC 3629) and the limits
 * of unsigned/signed 64-bit integers. */
#define PROPER_IMPLEMENTATION
#include "../cli/args.c"
#include "../cli/json.c"

#include <unistd.h>

#include "test.h"

/* ---- capturing what a piece of code writes ---- */

static FILE *json_file;
static char text[4096];

static cli_json *json_begin(cli_json *j) {
    json_file = tmpfile();
    cli_json_init(j, json_file);
    return j;
}

static const char *json_text(void) {
    size_t n;
    rewind(json_file);
    n = fread(text, 1, sizeof text - 1, json_file);
    text[n] = '\0';
    fclose(json_file);
    return text;
}

static FILE *err_file;
static int err_saved = -1;

static void stderr_begin(void) {
    fflush(stderr);
    err_file = tmpfile();
    err_saved = dup(2);
    dup2(fileno(err_file), 2);
}

static const char *stderr_text(void) {
    size_t n;
    fflush(stderr);
    dup2(err_saved, 2);
    close(err_saved);
    rewind(err_file);
    n = fread(text, 1, sizeof text - 1, err_file);
    text[n] = '\0';
    fclose(err_file);
    return text;
}

/* ---- JSON ---- */

static void test_json_structure(void) {
    cli_json j;
    json_begin(&j);
    cli_json_object_begin(&j);
    cli_json_key_string(&j, "name", "x");
    cli_json_key_int(&j, "n", -3);
    cli_json_key(&j, "values");
    cli_json_array_begin(&j);
    cli_json_number(&j, 1);
    cli_json_number(&j, 2.5);
    cli_json_array_begin(&j);
    cli_json_array_end(&j);
    cli_json_object_begin(&j);
    cli_json_key_bool(&j, "ok", 1);
    cli_json_key_null(&j, "none");
    cli_json_object_end(&j);
    cli_json_array_end(&j);
    cli_json_key_bool(&j, "last", 0);
    cli_json_object_end(&j);
    CHECK_INT(cli_json_finish(&j), 0);
    CHECK_STR(json_text(), "{\"name\": \"x\", \"n\": -3, \"values\": [1, 2.5, [], {\"ok\": true, \"none\": null}], "
                           "\"last\": false}\n");
}

static void test_json_unfinished(void) {
    cli_json j;
    json_begin(&j);
    cli_json_array_begin(&j);
    cli_json_uint(&j, 1);
    CHECK_INT(cli_json_finish(&j), -1);
    json_text();
}

static void test_json_escapes(void) {
    cli_json j;
    json_begin(&j);
    cli_json_array_begin(&j);
    cli_json_string(&j, "a\"b\\c/d");
    cli_json_string(&j, "\b\f\n\r\t\x01\x1f\x7f");
    cli_json_string_n(&j, "x\0y", 3);
    cli_json_string(&j, NULL);
    cli_json_array_end(&j);
    CHECK_STR(json_text(), "[\"a\\\"b\\\\c/d\", \"\\b\\f\\n\\r\\t\\u0001\\u001f\x7f\", \"x\\u0000y\", null]\n");
}

/* RFC 3629: valid sequences pass through; each maximal invalid subpart
 * becomes one U+FFFD. */
static void test_json_utf8(void) {
    static const struct { const char *in, *out; } cases[] = {
        {"\xc3\xa9", "\"\xc3\xa9\""},                      /* U+00E9 */
        {"\xe2\x82\xac", "\"\xe2\x82\xac\""},              /* U+20AC */
        {"\xf0\x9f\x98\x80", "\"\xf0\x9f\x98\x80\""},      /* U+1F600 */
        {"\xf4\x8f\xbf\xbf", "\"\xf4\x8f\xbf\xbf\""},      /* U+10FFFF, the last code point */
        {"\xff", "\"\\ufffd\""},                           /* never valid */
        {"a\xc3", "\"a\\ufffd\""},                         /* truncated at the end */
        {"\xe2\x82x", "\"\\ufffdx\""},                     /* truncated before an ASCII byte */
        {"\xc0\xaf", "\"\\ufffd\\ufffd\""},                /* overlong '/' */
        {"\xe0\x80\xaf", "\"\\ufffd\\ufffd\\ufffd\""},     /* overlong 3-byte */
        {"\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\""},     /* surrogate U+D800 */
        {"\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\""}, /* U+110000 */
        {"\x80z", "\"\\ufffdz\""},                         /* stray continuation byte */
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cli_json j;
        char want[64];
        json_begin(&j);
        cli_json_string(&j, cases[i].in);
        snprintf(want, sizeof want, "%s\n", cases[i].out);
        CHECK_STR(json_text(), want);
    }
}

static void test_json_numbers(void) {
    cli_json j;
    double third = 1.0 / 3.0, back;
    char *end;
    const char *t;
    json_begin(&j);
    cli_json_array_begin(&j);
    cli_json_number(&j, 0.1);
    cli_json_number(&j, 3);
    cli_json_number(&j, 1e300);
    cli_json_number(&j, -0.0);
    cli_json_number(&j, HUGE_VAL);
    cli_json_number(&j, -HUGE_VAL);
    cli_json_number(&j, nan(""));
    cli_json_int(&j, LLONG_MIN);
    cli_json_uint(&j, ULLONG_MAX);
    cli_json_array_end(&j);
    CHECK_STR(json_text(), "[0.1, 3, 1e+300, 0, null, null, null, -9223372036854775808, 18446744073709551615]\n");
    /* the shortest text that reads back as the same double */
    json_begin(&j);
    cli_json_number(&j, third);
    t = json_text();
    back = strtod(t, &end);
    CHECK(back == third);
    CHECK_INT(end - t, 18); /* "0.3333333333333333": 16 digits round-trip */
}

/* ---- numbers ---- */

static void test_parse_uint(void) {
    unsigned long long v = 0;
    CHECK_INT(cli_parse_uint("12", 0, ULLONG_MAX, "--n", &v), CLI_OK);
    CHECK_INT(v, 12);
    CHECK_INT(cli_parse_uint(" +7 ", 0, 10, "--n", &v), CLI_OK);
    CHECK_INT(v, 7);
    CHECK(cli_parse_uint("18446744073709551615", 0, ULLONG_MAX, "--n", &v) == CLI_OK && v == ULLONG_MAX);
    stderr_begin();
    CHECK_INT(cli_parse_uint("18446744073709551616", 0, ULLONG_MAX, "--n", &v), CLI_BAD_INPUT);
    CHECK_STR(stderr_text(), "proper: --n: '18446744073709551616' is too large; expected a non-negative whole number\n");
    stderr_begin();
    CHECK_INT(cli_parse_uint("-1", 1, ULLONG_MAX, "--n", &v), CLI_BAD_INPUT);
    CHECK_STR(stderr_text(), "proper: --n: '-1' is negative; expected a whole number of at least 1\n");
    stderr_begin();
    CHECK_INT(cli_parse_uint("1.5", 1, 10, "--n", &v), CLI_BAD_INPUT);
    CHECK_STR(stderr_text(), "proper: --n: expected a whole number from 1 to 10, got '1.5'\n");
    stderr_begin();
    CHECK_INT(cli_parse_uint("11", 1, 10, "--n", &v), CLI_BAD_INPUT);
    CHECK_STR(stderr_text(), "proper: --n: '11' is out of range; expected a whole number from 1 to 10\n");
    stderr_begin();
    CHECK_INT(cli_parse_uint("", 0, 10, "--n", &v), CLI_BAD_INPUT);
    CHECK_INT(cli_parse_uint("0x10", 0, 100, "--n", &v), CLI_BAD_INPUT);
    CHECK_INT(cli_parse_uint("1e3", 0, 10000, "--n", &v), CLI_BAD_INPUT);
    CHECK_INT(cli_parse_uint("99999999999999999999x", 0, ULLONG_MAX, "--n", &v), CLI_BAD_INPUT);
    CHECK_CONTAINS(stderr_text(), "expected a non-negative whole number, got '99999999999999999999x'");
    CHECK(v == ULLONG_MAX); /* failures leave the output alone */
}

static void test_parse_int(void) {
    long long v = 0;
    CHECK(cli_parse_int("-9223372036854775808", LLONG_MIN, LLONG_MAX, "--s", &v) == CLI_OK && v == LLONG_MIN);
    CHECK(cli_parse_int("9223372036854775807", LLONG_MIN, LLONG_MAX, "--s", &v) == CLI_OK && v == LLONG_MAX);
    CHECK(cli_parse_int("-5", -10, 10, "--s", &v) == CLI_OK && v == -5);
    stderr_begin();
    CHECK_INT(cli_parse_int("9223372036854775808", LLONG_MIN, LLONG_MAX, "--s", &v), CLI_BAD_INPUT);
    CHECK_INT(cli_parse_int("-11", -10, 10, "--s", &v), CLI_BAD_INPUT);
    CHECK_INT(cli_parse_int("--1", -10, 10, "--s", &v), CLI_BAD_INPUT);
    CHECK_STR(stderr_text(), "proper: --s: '9223372036854775808' is out of range; expected a whole number from "
                             "-9223372036854775808 to 9223372036854775807\n"
                             "proper: --s: '-11' is out of range; expected a whole number from -10 to 10\n"
                             "proper: --s: expected a whole number from -10 to 10, got '--1'\n");
    CHECK_INT(v, -5);
}

static void test_parse_double(void) {
    double v = 0;
    CHECK(cli_parse_double("0.5", "(0,1)", "--p", &v) == CLI_OK && v == 0.5);
    CHECK(cli_parse_double("1", "[0,1]", "--p", &v) == CLI_OK && v == 1.0);
    CHECK(cli_parse_double("inf", "(0,inf]", "--t", &v) == CLI_OK && isinf(v));
    CHECK(cli_parse_double("-2.5e3", NULL, "--x", &v) == CLI_OK && v == -2500.0);
    stderr_begin();
    CHECK_INT(cli_parse_double("1", "(0,1)", "--p", &v), CLI_BAD_INPUT);
    CHECK_INT(cli_parse_double("0", "(0,inf)", "--p", &v), CLI_BAD_INPUT);
    CHECK_INT(cli_parse_double("-1", "[0,inf)", "--p", &v), CLI_BAD_INPUT);
    CHECK_INT(cli_parse_double("inf", "(0,inf)", "--p", &v), CLI_BAD_INPUT);
    CHECK_INT(cli_parse_double("nan", NULL, "--p", &v), CLI_BAD_INPUT);
    CHECK_STR(stderr_text(), "proper: --p: expected a number in (0,1), got '1'\n"
                             "proper: --p: expected a positive number, got '0'\n"
                             "proper: --p: expected a non-negative number, got '-1'\n"
                             "proper: --p: expected a positive number, got 'inf'\n"
                             "proper: --p: expected a finite number, got 'nan'\n");
    stderr_begin();
    CHECK_INT(cli_parse_double("abc", NULL, "--p", &v), CLI_BAD_INPUT);
    CHECK_CONTAINS(stderr_text(), "proper: --p: ");
    CHECK(v == -2500.0); /* failures leave the output alone */
}

/* ---- options ---- */

static void test_args_parse(void) {
    char *argv[] = {"cmd", "--json", "-o", "f.txt", "--precision=0.25", "pos", "-", "-3", "-ofile",
                    "--seed", "42", "--", "--json"};
    int argc = (int)(sizeof argv / sizeof argv[0]), json = 0, n = 0;
    const char *out = NULL, *pos[5] = {NULL, NULL, NULL, NULL, NULL};
    double precision = 0;
    unsigned long long seed = 0;
    cli_args a;
    cli_args_init(&a, "cmd", argc, argv);
    while (cli_next(&a)) {
        if (cli_flag(&a, "--json")) json++;
        else if (cli_opt(&a, "-o|--output")) out = a.value;
        else if (cli_opt_double(&a, "--precision", "(0,1)", &precision)) {}
        else if (cli_opt_uint(&a, "--seed", 0, ULLONG_MAX, &seed)) {}
        else if (cli_positional(&a) && n < 5) pos[n++] = a.value;
        else cli_unknown(&a);
    }
    CHECK_INT(a.status, CLI_OK);
    CHECK_INT(a.help, 0);
    CHECK_INT(json, 1);
    CHECK_STR(out, "file");
    CHECK(precision == 0.25);
    CHECK_INT(seed, 42);
    CHECK_INT(n, 4);
    CHECK_STR(pos[0], "pos");
    CHECK_STR(pos[1], "-");
    CHECK_STR(pos[2], "-3");
    CHECK_STR(pos[3], "--json");
}

/* An option of two values: "--pair A B" and "--pair=A B". */
static void test_args_two_values(void) {
    char *argv[] = {"cmd", "--pair", "a", "b", "x", "--pair=c", "d"}, *short_argv[] = {"cmd", "--pair", "a"};
    const char *first[2] = {NULL, NULL}, *second[2] = {NULL, NULL}, *pos = NULL;
    int n = 0;
    cli_args a;
    cli_args_init(&a, "cmd", 7, argv);
    while (cli_next(&a)) {
        if (cli_opt(&a, "--pair")) {
            first[n] = a.value;
            if (cli_opt_next(&a)) second[n] = a.value;
            n++;
        } else if (cli_positional(&a)) pos = a.value;
        else cli_unknown(&a);
    }
    CHECK_INT(a.status, CLI_OK);
    CHECK_INT(n, 2);
    CHECK_STR(first[0], "a");
    CHECK_STR(second[0], "b");
    CHECK_STR(first[1], "c");
    CHECK_STR(second[1], "d");
    CHECK_STR(pos, "x");
    stderr_begin();
    cli_args_init(&a, "cmd", 3, short_argv);
    CHECK(cli_next(&a) && cli_opt(&a, "--pair") && !cli_opt_next(&a));
    CHECK_STR(stderr_text(), "proper cmd: option '--pair' needs 2 values (see 'proper cmd --help')\n");
    CHECK_INT(a.status, CLI_BAD_INPUT);
}

/* Runs the standard loop on argv and returns what it printed on stderr. */
static const char *args_error(int argc, char **argv, int *status, int *help) {
    cli_args a;
    double x;
    stderr_begin();
    cli_args_init(&a, "cmd", argc, argv);
    while (cli_next(&a)) {
        if (cli_flag(&a, "--json")) {}
        else if (cli_opt(&a, "-o|--output")) {}
        else if (cli_opt_double(&a, "--precision", "(0,1)", &x)) {}
        else if (cli_positional(&a)) {}
        else cli_unknown(&a);
    }
    *status = a.status;
    *help = a.help;
    return stderr_text();
}

static void test_args_errors(void) {
    char *unknown[] = {"cmd", "--bogus", "--json"}, *missing[] = {"cmd", "--json", "-o"},
         *flag_value[] = {"cmd", "--json=1"}, *bad[] = {"cmd", "--precision", "2", "--bogus"},
         *help[] = {"cmd", "--bogus", "--help"}, *not_help[] = {"cmd", "--", "--help"};
    int status, h;
    CHECK_STR(args_error(3, unknown, &status, &h), "proper cmd: unknown option '--bogus' (see 'proper cmd --help')\n");
    CHECK_INT(status, CLI_BAD_INPUT);
    CHECK_STR(args_error(3, missing, &status, &h), "proper cmd: option '-o' needs a value (see 'proper cmd --help')\n");
    CHECK_INT(status, CLI_BAD_INPUT);
    CHECK_STR(args_error(2, flag_value, &status, &h), "proper cmd: option '--json' takes no value (see 'proper cmd --help')\n");
    /* the first error stops the loop: one message */
    CHECK_STR(args_error(4, bad, &status, &h), "proper: --precision: expected a number in (0,1), got '2'\n");
    CHECK_INT(status, CLI_BAD_INPUT);
    args_error(3, help, &status, &h);
    CHECK_INT(h, 1);
    CHECK_STR(args_error(3, not_help, &status, &h), "");
    CHECK_INT(h, 0);
    CHECK_INT(status, CLI_OK);
}

/* Another program's name replaces "proper" in every message, the wording
 * otherwise the same; quiet prints nothing and keeps the statuses. */
static void test_args_program_quiet(void) {
    char *unknown[] = {"cmd", "--bogus"}, *bad[] = {"cmd", "--precision", "2"};
    proper_error err;
    int status, h;
    cli_set_program("proper-mpi");
    CHECK_STR(args_error(2, unknown, &status, &h),
              "proper-mpi cmd: unknown option '--bogus' (see 'proper-mpi cmd --help')\n");
    CHECK_STR(args_error(3, bad, &status, &h), "proper-mpi: --precision: expected a number in (0,1), got '2'\n");
    proper_error_set(&err, PROPER_EPARSE, "f.runs", 3, 7, "bad token");
    stderr_begin();
    CHECK_INT(cli_report(&err), CLI_BAD_INPUT);
    CHECK_STR(stderr_text(), "proper-mpi: f.runs:3:7: bad token\n");
    cli_set_quiet(1);
    CHECK_STR(args_error(2, unknown, &status, &h), "");
    CHECK_INT(status, CLI_BAD_INPUT);
    CHECK_STR(args_error(3, bad, &status, &h), "");
    CHECK_INT(status, CLI_BAD_INPUT);
    stderr_begin();
    CHECK_INT(cli_report(&err), CLI_BAD_INPUT);
    CHECK_INT(cli_fail("x %d", 1), CLI_BAD_INPUT);
    CHECK_STR(stderr_text(), "");
    cli_set_quiet(0);
    cli_set_program("proper");
    CHECK_STR(args_error(2, unknown, &status, &h), "proper cmd: unknown option '--bogus' (see 'proper cmd --help')\n");
}

/* ---- clock ---- */

static void test_now(void) {
    struct timespec pause = {0, 20000000}; /* 20 ms */
    double t0 = cli_now(), t1;
    nanosleep(&pause, NULL);
    t1 = cli_now();
    CHECK(t1 - t0 >= 0.0199);
    CHECK(t1 - t0 < 5.0);
}

int main(void) {
    RUN(test_json_structure);
    RUN(test_json_unfinished);
    RUN(test_json_escapes);
    RUN(test_json_utf8);
    RUN(test_json_numbers);
    RUN(test_parse_uint);
    RUN(test_parse_int);
    RUN(test_parse_double);
    RUN(test_args_parse);
    RUN(test_args_two_values);
    RUN(test_args_errors);
    RUN(test_args_program_quiet);
    RUN(test_now);
    return test_summary();
}
