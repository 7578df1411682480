#!/usr/bin/env python3
"""Lists the public API in Sources/ (and Tune/Sources/) that has no doc comment, or an incomplete one.

A declaration is public when it says `public` or `open`, or when it is a requirement of a
public protocol, a member of a `public extension`, or a `case` of a public enum. Checked
declarations: func, init, subscript, var, let, struct, class, actor, enum, protocol, case,
typealias, associatedtype (extensions themselves carry no documentation and are not checked).

Rules, per public declaration:
  * `undocumented`: no `///` (or `/** */`) comment directly above it. Attributes
    (`@inlinable`, `@discardableResult`, an `@Option(...)` over several lines) may stand
    between; a blank line may not.
  * For a func, init or subscript (the only declarations with parameters):
      - `parameters`: a parameter's internal name is not documented, as
        `- Parameter name:` or as `- name:` in a `- Parameters:` list;
      - `returns`: a func or subscript returning something other than Void/() /Never has
        no `- Returns:`;
      - `throws`: a `throws` declaration has no `- Throws:` (`rethrows` needs none).
  * A member of a type or extension that declares conformances (or of an extension of the
    protocol itself: its default implementations), named like a requirement of a public
    protocol in Sources/ (same name and argument labels), needs no comment of its own:
    it implements that requirement, whose (checked) comment DocC shows for it. Its own
    comment, when it has one, needs no Parameters/Returns/Throws either.
  * A `ParameterDescriptor` constant (`static let x = ParameterDescriptor.number(...)`) needs
    no comment: its name with unit, range, default and `help:` text are its documentation,
    printed by the schema, `presets show` and `tactus tune`; a comment would repeat them.
  * Trivial members may carry a one-line `///` with no Parameters/Returns/Throws: operator
    functions (`==`, `<`, ...), `description`, `debugDescription`, `hash(into:)`,
    `encode(to:)` and `init(from:)`. Enum cases, properties and types never need those
    sections (a property or type states its units and constraints in its one comment).

Usage: check_doc_comments.py [--list] [--strict] [MODULE ...]
  prints one line per module (declarations checked, findings by kind) and a total;
  --list also prints every finding as `path:line: name: kind, kind`;
  --strict exits 1 when any finding remains (otherwise the exit status is 0).
The parser is line based (strings and comments are skipped when counting braces), fast
enough for `make docs` (well under a second for the whole tree).
"""
import os
import re
import sys

REPOSITORY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
# The main package's sources and the Tune/ package's.
ROOTS = [os.path.join(REPOSITORY, "Sources"), os.path.join(REPOSITORY, "Tune", "Sources")]

MODIFIERS = (r"(?:public|open|internal|private|fileprivate|package|static|class|final|override|"
             r"mutating|nonmutating|convenience|required|indirect|lazy|weak|unowned|nonisolated|"
             r"dynamic|optional|consuming|borrowing|(?:public|internal|private|fileprivate|package)"
             r"\(set\))")
ATTRIBUTE = r"@\w+(?:\([^()]*\))?"
DECL = re.compile(r"^\s*((?:(?:" + ATTRIBUTE + r"|" + MODIFIERS + r")\s+)*)"
                  r"(func|init|subscript|var|let|struct|class|actor|enum|protocol|case|typealias|"
                  r"associatedtype|extension)(?![\w])")
TRIVIAL_FUNCS = {"description", "debugDescription", "hash", "encode"}
OPERATOR = re.compile(r"^[^\w\s(<]+")


def strip_code(lines):
    """Each line with strings and comments blanked out (for brace counting and parsing)."""
    out = []
    in_block = 0
    in_multiline = None  # the closing delimiter of a multi-line string
    for line in lines:
        res = []
        i = 0
        n = len(line)
        while i < n:
            if in_block:
                if line.startswith("*/", i):
                    in_block -= 1
                    i += 2
                elif line.startswith("/*", i):
                    in_block += 1
                    i += 2
                else:
                    i += 1
                continue
            if in_multiline:
                if line.startswith(in_multiline, i):
                    i += len(in_multiline)
                    in_multiline = None
                    res.append('""')
                else:
                    i += 1
                continue
            c = line[i]
            if c not in '/#"':
                res.append(c)
                i += 1
                continue
            if line.startswith("//", i):
                break
            if line.startswith("/*", i):
                in_block = 1
                i += 2
                continue
            m = re.match(r'(#*)"""', line[i:])
            if m:
                in_multiline = '"""' + m.group(1)
                i += len(m.group(0))
                continue
            m = re.match(r'(#*)"', line[i:])
            if m:
                close = '"' + m.group(1)
                i += len(m.group(0))
                depth = 0
                while i < n:
                    if line[i] == "\\":
                        if line.startswith("\\(", i):
                            depth += 1
                            i += 2
                            continue
                        i += 2
                        continue
                    if depth and line[i] == ")":
                        depth -= 1
                    elif not depth and line.startswith(close, i):
                        i += len(close)
                        break
                    i += 1
                res.append('""')
                continue
            res.append(c)
            i += 1
        out.append("".join(res))
    return out


def attribute_start(lines, j):
    """The first line of an attribute (`@Option(...)`, possibly over several lines) that ends
    on line j, or None when line j ends no attribute."""
    depth = 0
    for k in range(j, max(-1, j - 12), -1):
        text = lines[k].strip()
        if not text or text.startswith("//"):
            return None
        depth += text.count(")") - text.count("(")
        if depth == 0 and text.startswith("@"):
            return k
        if depth <= 0 and not text.startswith("@"):
            return None
    return None


def doc_above(lines, index):
    """The doc comment directly above lines[index] (attribute lines skipped), or None."""
    j = index - 1
    while j >= 0:  # attributes, each on one line or spread over several
        start = attribute_start(lines, j)
        if start is None:
            break
        j = start - 1
    doc = []
    if j >= 0 and lines[j].strip().endswith("*/"):
        while j >= 0:
            doc.insert(0, lines[j])
            if lines[j].strip().startswith("/**"):
                return "\n".join(doc)
            if lines[j].strip().startswith("/*"):
                return None
            j -= 1
        return None
    while j >= 0 and lines[j].strip().startswith("///"):
        doc.insert(0, lines[j].strip()[3:])
        j -= 1
    return "\n".join(doc) if doc else None


def split_top(text):
    parts, depth, cur = [], 0, []
    for c in text:
        if c in "([<{":
            depth += 1
        elif c in ")]>}":
            depth -= 1
        if c == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(c)
    if "".join(cur).strip():
        parts.append("".join(cur))
    return parts


def signature(code, index, keyword):
    """The declaration's text from its keyword to its body (or its end), on one line."""
    text = ""
    depth = 0
    for k in range(index, min(index + 30, len(code))):
        line = code[k]
        for c in line:
            if c in "([":
                depth += 1
            elif c in ")]":
                depth -= 1
            elif c == "{" and depth == 0:
                return text
            text += c
        text += " "
        nxt = code[k + 1].strip() if k + 1 < len(code) else ""
        if depth == 0 and not re.match(r"^(->|throws|rethrows|async|where|\.|&|:)", nxt):
            break
    return text


def parameter_list(sig, keyword):
    """The words before each parameter's colon (attributes and ownership dropped), and the
    text after the closing parenthesis, of a func, init or subscript signature."""
    i = sig.find("(", sig.find(keyword) + len(keyword))
    if i < 0:
        return [], ""
    depth, j = 0, i
    while j < len(sig):
        depth += sig[j] == "("
        depth -= sig[j] == ")"
        if depth == 0:
            break
        j += 1
    words = []
    for part in split_top(sig[i + 1:j]):
        before = [w for w in part.split(":", 1)[0].split()
                  if not w.startswith("@") and w not in ("inout", "borrowing", "consuming")]
        if before:
            words.append(before)
    return words, sig[j + 1:]


def parameters(sig, keyword):
    """(internal names, return type or None, throws) of a func, init or subscript."""
    words, rest = parameter_list(sig, keyword)
    throws = bool(re.search(r"\bthrows\b", rest.split("->")[0]))
    m = re.search(r"->\s*(.+?)\s*(\bwhere\b|$)", rest)
    return [w[-1] for w in words], m.group(1).strip() if m else None, throws


REQUIREMENTS = {}  # requirement key → the public protocols declaring it
PARENTS = {}  # public protocol → the protocols it refines
DESCRIPTOR = re.compile(r"\blet\s+\w+\s*(:\s*ParameterDescriptor\s*)?=\s*ParameterDescriptor\.")


def member_key(code, idx, keyword):
    """`name(label:label:)` for a func/init/subscript, the name for anything else."""
    if keyword in ("func", "init", "subscript"):
        sig = signature(code, idx, keyword)
        m = re.search(r"\bfunc\s+([^\s(<]+)", sig) if keyword == "func" else None
        name = m.group(1) if m else keyword
        words, _ = parameter_list(sig, keyword)
        return name + "(" + "".join(w[0] + ":" for w in words) + ")"
    m = re.search(r"\b" + keyword + r"\s+(\w+)", code[idx])
    return m.group(1) if m else "?"


def refined(protocols):
    """The protocols and every protocol they refine."""
    seen, todo = set(), list(protocols)
    while todo:
        p = todo.pop()
        if p not in seen:
            seen.add(p)
            todo += PARENTS.get(p, ())
    return seen


SOURCES = {}  # path → (lines, lines with strings and comments blanked), read once


def check_file(path, collect=False):
    if path not in SOURCES:
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        SOURCES[path] = (lines, strip_code(lines))
    lines, code = SOURCES[path]
    findings = []
    checked = 0
    # a stack of scopes: "public-ext", "public-protocol", "public-enum", "type", "other",
    # with whether the scope's declaration lists conformances
    stack = []
    pending = None
    protocol_name = None
    for idx, line in enumerate(code):
        m = DECL.match(line)
        opened_kind = None
        if m:
            mods, keyword = m.group(1), m.group(2)
            words = set(re.findall(r"[\w()]+", mods))
            scope, scope_conforms = stack[-1] if stack else ("file", set())
            explicit_public = "public" in words or "open" in words
            restricted = words & {"private", "fileprivate", "internal", "package"}
            if scope == "other":
                public = False
            elif keyword == "case":
                public = scope == "public-enum"
            elif scope in ("public-ext", "public-protocol"):
                public = not restricted
            else:
                public = explicit_public
            if keyword == "extension":
                opened_kind = "public-ext" if explicit_public else "type"
            elif keyword == "protocol":
                opened_kind = "public-protocol" if public else "type"
            elif keyword == "enum":
                opened_kind = "public-enum" if public else "type"
            elif keyword in ("struct", "class", "actor"):
                opened_kind = "type"
            else:
                opened_kind = "other"
            opened_conforms = set()  # the protocols the scope's declaration lists
            if opened_kind != "other":
                head = signature(code, idx, keyword).split(" where ")[0]
                while re.search(r"<[^<>]*>", head):
                    head = re.sub(r"<[^<>]*>", "", head)
                if ":" in head:
                    opened_conforms = set(re.findall(r"\w+", head.split(":", 1)[1]))
                if keyword == "extension":  # an extension of a protocol implements its requirements
                    extended = re.search(r"\bextension\s+(\w+)", head)
                    opened_conforms |= {extended.group(1)} if extended else set()
                if keyword == "protocol":
                    PARENTS[member_key(code, idx, keyword)] = opened_conforms
            opened_kind = (opened_kind, opened_conforms)
            if collect:
                if public and scope == "public-protocol":
                    REQUIREMENTS.setdefault(member_key(code, idx, keyword), set()).add(protocol_name)
                if keyword == "protocol":
                    protocol_name = member_key(code, idx, keyword)
            elif public and keyword != "extension":
                checked += 1
                implements = bool(refined(scope_conforms) & REQUIREMENTS.get(member_key(code, idx, keyword), set()))
                if implements or DESCRIPTOR.search(line):
                    problems = []
                else:
                    problems = check_decl(lines, code, idx, keyword)
                if problems:
                    name = re.sub(r"\s+", " ", lines[idx].strip())[:90]
                    findings.append((path, idx + 1, name, problems))
        for c in line:
            if c == "{":
                if opened_kind:
                    stack.append(opened_kind)
                    opened_kind = None  # later braces on the same line belong to the body
                elif pending:
                    stack.append(pending)
                    pending = None
                else:
                    stack.append(("other", set()))
            elif c == "}":
                if stack:
                    stack.pop()
        if opened_kind:  # a declaration whose brace is on a later line
            pending = opened_kind
    return checked, findings


def check_decl(lines, code, idx, keyword):
    doc = doc_above(lines, idx)
    if doc is None:
        return ["undocumented"]
    if keyword not in ("func", "init", "subscript"):
        return []
    sig = signature(code, idx, keyword)
    names, ret, throws = parameters(sig, keyword)
    one_line = len([l for l in doc.split("\n") if l.strip()]) == 1
    fname = ""
    if keyword == "func":
        fm = re.search(r"\bfunc\s+(\S+?)\s*[(<]", sig)
        fname = fm.group(1) if fm else ""
    trivial = (keyword == "func" and (fname in TRIVIAL_FUNCS or OPERATOR.match(fname or "a"))) or \
        (keyword == "init" and re.match(r"init\s*\(\s*from\s+decoder", sig[sig.find("init"):]))
    if trivial and one_line:
        return []
    problems = []
    missing = [n for n in names
               if not re.search(r"-\s+(Parameter\s+)?" + re.escape(n) + r"\s*:", doc)]
    if missing:
        problems.append("parameters (" + ", ".join(missing) + ")")
    if keyword in ("func", "subscript") and ret and ret not in ("Void", "()", "Never") \
            and not re.search(r"-\s+Returns\s*:", doc):
        problems.append("returns")
    if throws and not re.search(r"-\s+Throws\s*:", doc):
        problems.append("throws")
    return problems


def main(argv):
    list_all = "--list" in argv
    strict = "--strict" in argv
    wanted = [a for a in argv if not a.startswith("--")]
    modules = sorted((d, os.path.join(root, d)) for root in ROOTS for d in os.listdir(root)
                     if os.path.isdir(os.path.join(root, d)))
    for root in ROOTS:
        for dirpath, _, files in sorted(os.walk(root)):
            for name in sorted(files):
                if name.endswith(".swift"):
                    check_file(os.path.join(dirpath, name), collect=True)
    total_checked = total = 0
    kinds_total = {}
    print(f"{'module':<20} {'public':>6} {'findings':>8}  undocumented parameters returns throws")
    for module, folder in modules:
        if wanted and module not in wanted:
            continue
        checked, findings = 0, []
        for dirpath, _, files in sorted(os.walk(folder)):
            for name in sorted(files):
                if name.endswith(".swift"):
                    c, f = check_file(os.path.join(dirpath, name))
                    checked += c
                    findings += f
        if not checked:
            continue
        kinds = {"undocumented": 0, "parameters": 0, "returns": 0, "throws": 0}
        for *_, problems in findings:
            for p in problems:
                kinds[p.split(" ")[0]] += 1
        for k, v in kinds.items():
            kinds_total[k] = kinds_total.get(k, 0) + v
        print(f"{module:<20} {checked:>6} {len(findings):>8}  {kinds['undocumented']:>12} "
              f"{kinds['parameters']:>10} {kinds['returns']:>7} {kinds['throws']:>6}")
        total_checked += checked
        total += len(findings)
        if list_all:
            for path, line, name, problems in findings:
                print(f"  {os.path.relpath(path, REPOSITORY)}:{line}: {name}: {', '.join(problems)}")
    print(f"{'total':<20} {total_checked:>6} {total:>8}  " + " ".join(
        f"{kinds_total.get(k, 0):>{w}}" for k, w in
        (("undocumented", 12), ("parameters", 10), ("returns", 7), ("throws", 6))))
    return 1 if strict and total else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
