/* replay.h — the plain `main` of every fuzz target: without libFuzzer
 * (PROPER_LIBFUZZER undefined), replay each file of the corpus directory
 * argv[1] through LLVMFuzzerTestOneInput and print "ok NAME (N inputs)".
 * Include it at the end of a fuzz target after defining PROPER_FUZZ_NAME. */
#ifndef PROPER_LIBFUZZER
#include <dirent.h>
#include <stdio.h>

int main(int argc, char **argv) {
    DIR *dir;
    struct dirent *ent;
    int n = 0;
    if (argc < 2 || !(dir = opendir(argv[1]))) {
        printf("FAIL %s: cannot open corpus directory %s\n", PROPER_FUZZ_NAME, argc > 1 ? argv[1] : "(none)");
        return 1;
    }
    while ((ent = readdir(dir)) != NULL) {
        char path[4096];
        char *data;
        size_t len;
        proper_error err;
        if (ent->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "%s/%s", argv[1], ent->d_name);
        if (proper_read_file(path, &data, &len, &err)) continue;
        LLVMFuzzerTestOneInput((const uint8_t *)data, len);
        PROPER_FREE(data);
        n++;
    }
    closedir(dir);
    printf("ok %s (%d inputs)\n", PROPER_FUZZ_NAME, n);
    return 0;
}
#endif
