/* The load benchmark's baseline: every libyaml event of a file pulled and dropped,
 * building nothing, as a whole C process. menud --check on the same file is
 * measured against it (menubench's load section compiles this with cc). */
#include <yaml.h>
#include <stdio.h>
int main(int argc, char **argv) {
    FILE *f = fopen(argv[1], "rb");
    if (!f) return 2;
    yaml_parser_t p; yaml_event_t e;
    yaml_parser_initialize(&p);
    yaml_parser_set_input_file(&p, f);
    long n = 0;
    for (;;) {
        if (!yaml_parser_parse(&p, &e)) return 1;
        int done = e.type == YAML_STREAM_END_EVENT;
        yaml_event_delete(&e);
        n++;
        if (done) break;
    }
    yaml_parser_delete(&p);
    fclose(f);
    return n > 0 ? 0 : 1;
}
