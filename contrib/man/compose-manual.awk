# Makes a manual page from the one swift-argument-parser's generate-manual wrote
# (its DESCRIPTION: the options and subcommands, from the programs' own help) and a
# file of hand-written sections, which the generator cannot write: a SYNOPSIS that
# says how the program is called (the generator's names `subcommand` for any
# command, and shows no subcommand's arguments), ENVIRONMENT, FILES, EXIT STATUS,
# EXAMPLES and SEE ALSO.
#
#   awk -f compose-manual.awk SECTIONS GENERATED > PAGE
#
# A hand-written section replaces the generated one of its name; the sections come
# out in the order mdoc(7) gives. The options the top level describes (menuctl's
# --socket, --json and --raw, which every subcommand takes) are left out of each
# subcommand's list, where the generator repeats them, and a list left empty goes.
# The `help` subcommand that the generator lists for every program is kept only
# where there are others (`menuctl help rows`; menud has none and takes no `help`).

BEGIN {
    split("NAME|LIBRARY|SYNOPSIS|DESCRIPTION|CONTEXT|IMPLEMENTATION NOTES|RETURN VALUES|" \
          "ENVIRONMENT|FILES|EXIT STATUS|EXAMPLES|DIAGNOSTICS|ERRORS|SEE ALSO|STANDARDS|" \
          "HISTORY|AUTHORS|CAVEATS|BUGS|SECURITY CONSIDERATIONS", order, "|")
    for (i in order) known[order[i]] = 1
    depth = 0
    skipping = 0
}

function section_name(line) {
    sub(/^\.Sh[ \t]+/, "", line)
    gsub(/"/, "", line)
    return toupper(line)
}

function out(line) {
    if (in_help) help_item = help_item line "\n"
    else generated[current] = generated[current] line "\n"
}

function fail(message) {
    print FILENAME ":" FNR ": " message > "/dev/stderr"
    failed = 1
    exit 1
}

# The hand-written sections (lines before the first .Sh are comments).
FNR == NR {
    if ($0 ~ /^\.Sh[ \t]/) {
        current = section_name($0)
        if (!(current in known)) fail("unknown section '" current "'")
        written[current] = ""
    }
    if (current != "") written[current] = written[current] $0 "\n"
    next
}

# The generated page.
FNR == 1 { current = "" }

/^\.Sh[ \t]/ {
    current = section_name($0)
    if (!(current in known)) fail("unknown section '" current "'")
    generated[current] = ""
}

current == "" { header = header $0 "\n"; next }

# Lists: depth 1 is the top level's, deeper ones a subcommand's.
/^\.Bl([ \t]|$)/ {
    depth++
    if (skipping) next
    if (depth >= 2) { pending[depth] = $0; next }
}

/^\.El([ \t]|$)/ {
    if (depth == 1) {
        in_help = 0
        if (subcommands) generated[current] = generated[current] help_item
        help_item = ""
    }
    if (skipping && depth == skipping) skipping = 0
    if (skipping) { depth--; next }
    if (depth in pending) { delete pending[depth]; depth--; next }
    depth--
}

/^\.It([ \t]|$)/ && !(skipping && depth > skipping) {
    skipping = 0
    if (depth == 1) {
        top[$0] = 1
        in_help = ($0 == ".It Em help")
        if ($0 ~ /^\.It Em / && !in_help) subcommands++
    }
    else if (depth >= 2 && ($0 in top)) { skipping = depth; next }
    if (depth in pending) {
        out(pending[depth])
        delete pending[depth]
    }
}

skipping { next }

{ out($0) }

END {
    if (failed) exit 1
    printf "%s", header
    for (i = 1; i in order; i++) {
        name = order[i]
        if (name in written) printf "%s", written[name]
        else if (name in generated) printf "%s", generated[name]
    }
}
