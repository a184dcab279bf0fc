# Prints, once each and in the order they first appear, the functions of the object
# whose path ends with OBJECT (-v object=NAME) that callgrind files (--demangle=no)
# recorded: the input of a linker's symbol ordering file. Callgrind files name each
# object and function once, as "ob=(ID) PATH" / "fn=(ID) NAME", and by "(ID)" alone
# afterwards; "cob=" and "cfn=" (callees) define names the same way.
match($0, /^c?ob=\(([0-9]+)\)/) {
    id = substr($0, RSTART, RLENGTH); sub(/^c?ob=/, "", id)
    rest = substr($0, RLENGTH + 2)
    if (rest != "") objects[id] = rest
    if ($0 ~ /^ob=/) current = objects[id]
    next
}
match($0, /^c?fn=\(([0-9]+)\)/) {
    id = substr($0, RSTART, RLENGTH); sub(/^c?fn=/, "", id)
    rest = substr($0, RLENGTH + 2)
    if (rest != "") functions[id] = rest
    if ($0 !~ /^fn=/) next
    name = functions[id]
    n = length(object)
    if (substr(current, length(current) - n + 1) != object) next
    if (name == "" || name ~ /[ ()]/ || name ~ /^0x/ || (name in seen)) next
    seen[name] = 1
    print name
}
