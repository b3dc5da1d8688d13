# assemble.awk - builds the API document (openapi/cairn.yaml) from the shared
# part and each registered title's fragment, as text: every line is copied as
# written, so the document keeps its comments and layout.
#
#   awk -f openapi/assemble.awk engine/<title>/openapi.yaml ... openapi/base.yaml
#
# The fragments come first, in engine/titles.def's order (build.mk passes
# them so); the last file is the shared part. A fragment holds three top-level
# keys, written with the indentation they have in the document:
#   x-cairn-title:  id (the title id), prefix (of every schema it names) and
#                   row (its line in the info description's table of titles)
#   tags:           its tag, copied into the document's tags
#   components:     schemas: its schemas, copied into components/schemas
# The shared part carries three kinds of directive, each a YAML comment line,
# so the shared part alone is still YAML:
#   # cairn: title tags       every fragment's tags, in title order
#   # cairn: title schemas    every fragment's schemas, each after a blank line
#   # cairn: each title: T    one line T per title, at the directive's
#                             indentation, with {id}, {Prefix} and {row}
#                             replaced; a title is skipped unless it defines
#                             every schema T names as {Prefix}Name, so a
#                             list of alternatives holds only what exists.
# Anything else a fragment holds, a schema outside its prefix, a name defined
# twice or a fragment without id, prefix or row fails the build.

function fail(msg)
{
  print "assemble.awk: " msg > "/dev/stderr"
  failed = 1
  exit 1
}

# The value of a one-line `key: value` member, unquoted ('' is a quote).
function scalar(line)
{
  sub(/^ *[a-z]+: */, "", line)
  if (line ~ /^'.*'$/) {
    line = substr(line, 2, length(line) - 2)
    gsub(/''/, "'", line)
  }
  return line
}

# The title's line for template `t`, or "" when the title lacks one of the
# schemas `t` names.
function instantiate(t, i,    rest, name, r)
{
  rest = t
  while (match(rest, /\{Prefix\}[A-Za-z0-9]+/)) {
    name = prefix[i] substr(rest, RSTART + 8, RLENGTH - 8)
    if (!((name) in owner))
      return ""
    rest = substr(rest, RSTART + RLENGTH)
  }
  gsub(/\{Prefix\}/, prefix[i], t)
  gsub(/\{id\}/, id[i], t)
  # {row} last: a row's text may hold braces of its own; an & in it would
  # stand for the matched text in gsub's replacement.
  r = row[i]
  gsub(/&/, "\\\\&", r)
  gsub(/\{row\}/, r, t)
  return t
}

FNR == 1 && FILENAME != ARGV[ARGC - 1] {
  titles++
  section = ""
  part = ""
  file[titles] = FILENAME
}

FILENAME != ARGV[ARGC - 1] {
  if ($0 ~ /^[A-Za-z]/) {
    section = $0
    sub(/:.*/, "", section)
    if (section != "x-cairn-title" && section != "tags" && section != "components")
      fail(FILENAME ": unknown top-level key " section)
    part = ""
    next
  }
  if (section == "")
    next # the header comment
  if (section == "x-cairn-title") {
    if ($0 ~ /^  id:/)
      id[titles] = scalar($0)
    else if ($0 ~ /^  prefix:/)
      prefix[titles] = scalar($0)
    else if ($0 ~ /^  row:/)
      row[titles] = scalar($0)
    else if ($0 !~ /^ *(#.*)?$/)
      fail(FILENAME ": x-cairn-title holds id, prefix and row only: " $0)
    next
  }
  if (section == "tags") {
    tags[titles] = tags[titles] $0 "\n"
    next
  }
  if ($0 ~ /^  [A-Za-z]/) {
    part = $0
    sub(/^ */, "", part)
    sub(/:.*/, "", part)
    if (part != "schemas")
      fail(FILENAME ": components holds schemas only, not " part)
    next
  }
  if (part != "schemas" && $0 !~ /^ *$/)
    fail(FILENAME ": a line outside components/schemas: " $0)
  if ($0 ~ /^    [A-Za-z0-9_]+:/) {
    name = $0
    sub(/^ */, "", name)
    sub(/:.*/, "", name)
    if (index(name, prefix[titles]) != 1 || prefix[titles] == "")
      fail(FILENAME ": schema " name " lacks the title's prefix " prefix[titles])
    if (name in owner)
      fail(FILENAME ": schema " name " is defined by " owner[name] " too")
    owner[name] = FILENAME
  }
  schemas[titles] = schemas[titles] $0 "\n"
  next
}

# The shared part, the last file. Its own schema names are checked against
# the titles' too: no title may redefine a shared schema.
FNR == 1 {
  for (i = 1; i <= titles; i++)
    if (id[i] == "" || prefix[i] == "" || row[i] == "")
      fail(file[i] ": x-cairn-title needs id, prefix and row")
}

/^components:/ {
  in_components = 1
}

in_components && /^    [A-Za-z0-9_]+:/ {
  name = $0
  sub(/^ */, "", name)
  sub(/:.*/, "", name)
  if (name in owner)
    fail(owner[name] ": schema " name " is a shared schema")
}

/^ *# cairn: title tags$/ {
  for (i = 1; i <= titles; i++)
    printf "%s", tags[i]
  next
}

/^ *# cairn: title schemas$/ {
  for (i = 1; i <= titles; i++)
    printf "\n%s", schemas[i]
  next
}

/^ *# cairn: each title: / {
  indent = $0
  sub(/#.*/, "", indent)
  template = $0
  sub(/^ *# cairn: each title: /, "", template)
  for (i = 1; i <= titles; i++) {
    line = instantiate(template, i)
    if (line != "")
      print indent line
  }
  next
}

/# cairn:/ {
  fail(FILENAME ": unknown directive: " $0)
}

{
  print
}
