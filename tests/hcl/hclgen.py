"""Seeded generators for the render tests: hostile strings and messy HCL documents."""

from __future__ import annotations

import random
import string
import unicodedata

from gpuplat.hcl.writer import quote

# Pieces of text that have broken HCL quoting somewhere: string and template
# delimiters, escapes, heredoc and comment openers, invisible characters.
NASTY_FRAGMENTS: tuple[str, ...] = (
    '"',
    "\\",
    "${",
    "%{",
    "$${",
    "%%{",
    "$$${",
    "%%%{",
    "}",
    "{",
    "~}",
    "$",
    "%",
    "$$",
    "\n",
    "\r\n",
    "\r",
    "\t",
    "<<EOF",
    "<<-EOT\n",
    "EOF",
    "EOT",
    "#",
    "//",
    "/*",
    "*/",
    "=",
    "\\n",
    "\\u0041",
    "\\\\${",
    "${var.x}",
    "%{ if true }x%{ endif }",
    "\x00",
    "\x1b",
    "\x7f",
    "\x85",
    "\u00a0",
    "\u00ad",
    "\u2028",
    "\u2029",
    "\u200b",
    "\u200d",
    "\ufeff",
    "\ufffe",
    "\U000e0001",
    "\U0010ffff",
    "\ue000",
    "é",
    "日本",
    "😀",
    "👨\u200d👩\u200d👧",
    "🇺🇸",
)

# Object keys whose width terraform fmt measures in grapheme clusters, token by
# token. Written raw between quotes (not via quote()) so that invisible
# characters reach the formatter unescaped.
GRAPHEME_KEYS: tuple[str, ...] = (
    "é",
    "e\u0301",
    "a$\u0301",
    "%\u0301x",
    "🇺🇸",
    "🇺🇸🇫",
    "👍🏽",
    "👨\u200d👩\u200d👧",
    "😀\u0301",
    "❤\ufe0f",
    "각",
    "\u1100\u1161\u11a8",
    "\u1100\u1100\u1161",
    "क्षि",
    "กำ",
    "ｆｕｌｌ",
    "日本語",
    "a\u200bb",
    "\u0600a",
    "x\u0308\u0301y",
)


def random_text(rnd: random.Random, max_parts: int = 8) -> str:
    """Text mixing hostile fragments, ASCII and random code points (no surrogates)."""
    parts: list[str] = []
    for _ in range(rnd.randint(0, max_parts)):
        roll = rnd.random()
        if roll < 0.45:
            parts.append(rnd.choice(NASTY_FRAGMENTS))
        elif roll < 0.75:
            parts.append("".join(rnd.choices(string.printable, k=rnd.randint(1, 6))))
        else:
            parts.append(chr(rnd.choice(_CODEPOINT_POOL)))
    return "".join(parts)


def nfc_text(rnd: random.Random, max_parts: int = 8) -> str:
    """random_text() in Unicode NFC, the only form quote() accepts."""
    return unicodedata.normalize("NFC", random_text(rnd, max_parts))


_CODEPOINT_POOL: tuple[int, ...] = (
    *range(0x00, 0x20),
    0x7F,
    *range(0x80, 0xA0),
    *range(0xA0, 0x180),
    *range(0x300, 0x370),
    *range(0x400, 0x450),
    *range(0x900, 0x980),
    *range(0x3040, 0x30A0),
    *range(0xAC00, 0xAC40),
    *range(0x1F300, 0x1F340),
    *range(0x1F3FB, 0x1F400),
    0x200C,
    0x200D,
    0x2060,
    0xFFFD,
    0x10FFFF,
)

_WORDS = (
    "name",
    "id",
    "zone",
    "count",
    "machine_type",
    "node_count",
    "min_node_count",
    "accelerator_type",
    "x",
    "labels",
    "disk_size_gb",
    "enable_private_nodes",
    "a",
    "workload_identity_pool",
    "in",
    "for_each",
    "tags",
    "gpu-count",
    "_hidden",
    "k8s_version",
)
_REFS = (
    "var.region",
    "var.node_pools",
    "local.labels",
    "module.net.subnet_ids",
    "google_container_cluster.main.id",
    'local.m["key"]',
    "var.list[0]",
    "aws_instance.web[*].id",
    "aws_instance.web.*.private_ip",
    "each.value.name",
    "count.index",
    "path.module",
)
_BLOCK_SHAPES = (
    ("resource", 2),
    ("data", 2),
    ("module", 1),
    ("provider", 1),
    ("output", 1),
    ("locals", 0),
    ("node_config", 0),
    ("guest_accelerator", 0),
    ("autoscaling", 0),
    ("lifecycle", 0),
    ("dynamic", 1),
)


class DocGen:
    """Random, valid, badly spaced HCL documents that stress terraform fmt's layout rules."""

    def __init__(self, rnd: random.Random) -> None:
        self.rnd = rnd

    # -- whitespace -------------------------------------------------------
    def _sp(self) -> str:
        """Optional blanks between two tokens."""
        return self.rnd.choice(("", "", " ", " ", "  ", "\t", " \t"))

    def _gap(self) -> str:
        """Required blanks between two tokens."""
        return self.rnd.choice((" ", " ", "  ", "\t", "   "))

    def _indent(self, level: int) -> str:
        roll = self.rnd.random()
        if roll < 0.6:
            return "  " * level
        if roll < 0.8:
            return ""
        return self.rnd.choice((" ", "\t", "    ", "      ", "   \t"))

    def _eol(self) -> str:
        return self.rnd.choice(("", "", "", " ", "  \t"))

    # -- documents ----------------------------------------------------------
    def document(self) -> str:
        """One whole file: a body, maybe after blank lines, ending in one newline."""
        lead = "\n" * self.rnd.choice((0, 0, 0, 1, 2))
        # No blank lines at the end: terraform fmt keeps them, format_hcl does not.
        return lead + (self.body(0).rstrip() or "a = 1") + "\n"

    def body(self, level: int) -> str:
        out: list[str] = []
        used: set[str] = set()
        for _ in range(self.rnd.randint(1, 7 if level else 10)):
            roll = self.rnd.random()
            if roll < 0.08:
                out.append("\n")
            elif roll < 0.16:
                out.append(self._indent(level) + self._comment())
            elif roll < 0.34 and level < 3:
                out.append(self.block(level))
            elif roll < 0.42:
                out.append(self._special_attribute(level, used))
            else:
                for _ in range(self.rnd.randint(1, 5)):
                    out.append(self.attribute(level, used))
        return "".join(out)

    def _comment(self) -> str:
        roll = self.rnd.random()
        text = self.rnd.choice(("note", "TODO: fix = 1", "a { b", '"quoted"', "é ${x}", ""))
        # No blanks at the end: terraform fmt keeps them in comments, format_hcl does not.
        text = self._sp() + text if text else ""
        if roll < 0.5:
            return f"#{text}\n"
        if roll < 0.85:
            return f"//{text}\n"
        return f"/* {text} */\n"

    def _trailer(self) -> str:
        """End of an attribute line: maybe a trailing comment, else maybe blanks."""
        if self.rnd.random() < 0.25:
            return self._sp() + " " + self._comment()
        return self._eol() + "\n"

    def _name(self, used: set[str]) -> str:
        for _ in range(50):
            word = self.rnd.choice(_WORDS)
            if self.rnd.random() < 0.3:
                word += "_" + self.rnd.choice(_WORDS).replace("-", "_")
            if word not in used:
                used.add(word)
                return word
        word = f"attr_{len(used)}"
        used.add(word)
        return word

    def attribute(self, level: int, used: set[str]) -> str:
        name = self._name(used)
        value = self.value(level, depth=0)
        head = f"{self._indent(level)}{name}{self._sp()}={self._sp()}"
        return head + value + self._trailer()

    def _special_attribute(self, level: int, used: set[str]) -> str:
        """Values Terraform itself rewrites or treats specially."""
        name = self._name(used)
        head = f"{self._indent(level)}{name}{self._sp()}={self._sp()}"
        roll = self.rnd.random()
        if roll < 0.3:
            return head + self.heredoc(level) + "\n"
        if roll < 0.55:
            inner = self.rnd.choice((*_REFS, "var.a ? 1 : 2", 'upper("x")', "{ a = 1 }"))
            return head + f'"${{{self._sp()}{inner}{self._sp()}}}"' + self._trailer()
        if roll < 0.65:
            return head + '"${\n' + "var.a ? var.b : var.c" + "\n}" + '"' + self._trailer()
        if roll < 0.75:
            return head + '"${var.a}${var.b}"' + self._trailer()
        if roll < 0.85:
            return head + self._template() + self._trailer()
        keys = self.rnd.sample(GRAPHEME_KEYS, self.rnd.randint(1, 5))
        items = "".join(f'{self._indent(level + 1)}"{key}" = {self.scalar()}\n' for key in keys)
        return head + "{\n" + items + self._indent(level) + "}" + self._trailer()

    def block(self, level: int) -> str:
        kind, labels = self.rnd.choice(_BLOCK_SHAPES)
        head = self._indent(level) + kind
        for _ in range(labels):
            head += self._gap() + self._label()
        if kind == "dynamic":
            inner = self._indent(level + 1) + f"for_each = {self.rnd.choice(_REFS)}\n"
            inner += self._indent(level + 1) + "content {\n" + self.body(level + 2)
            inner += self._indent(level + 1) + "}\n"
            return (
                head + self._sp() + "{\n" + inner + self._indent(level) + "}" + self._eol() + "\n"
            )
        if self.rnd.random() < 0.1:
            return self._variable(level)
        if self.rnd.random() < 0.12:
            # A one-line block: at most one attribute, or none.
            inside = (
                "" if self.rnd.random() < 0.3 else f" x{self._sp()}={self._sp()}{self.scalar()} "
            )
            return head + self._sp() + "{" + inside + "}" + self._eol() + "\n"
        return head + self._sp() + "{\n" + self.body(level + 1) + self._indent(level) + "}\n"

    def _variable(self, level: int) -> str:
        pad = self._indent(level + 1)
        kind = self.rnd.choice(("string", '"string"', '"list"', '"map"', "list", "map", "set"))
        extra = self.rnd.choice(("", f'{pad}default = "x"\n', f"{pad}nullable = false\n"))
        name = self._label()
        return (
            f"{self._indent(level)}variable {name} {{\n{pad}type{self._sp()}={self._sp()}{kind}\n"
            f"{extra}{self._indent(level)}}}\n"
        )

    def _label(self) -> str:
        roll = self.rnd.random()
        if roll < 0.15:
            return self.rnd.choice(_WORDS)  # bare: Terraform quotes it
        if roll < 0.25:
            return self.rnd.choice(('"\\u0041bc"', '"tab\\there"', '"\\u00e9t\\u00e9"'))
        text = nfc_text(self.rnd, 3).replace("$", "").replace("%", "")
        if roll < 0.6 or not text:
            text = self.rnd.choice(_WORDS)
        return quote(text)  # Terraform drops labels holding `$` or `%`: see tests

    # -- values -------------------------------------------------------------
    def scalar(self) -> str:
        roll = self.rnd.random()
        if roll < 0.15:
            return str(self.rnd.randint(-5, 10**6))
        if roll < 0.2:
            return self.rnd.choice(("true", "false", "null", "1.5", "-0.25", "1e+16"))
        if roll < 0.55:
            return quote(nfc_text(self.rnd, 4))
        if roll < 0.7:
            return quote(self.rnd.choice(_WORDS))
        return self.rnd.choice(_REFS)

    def value(self, level: int, depth: int) -> str:
        """Any expression; ``level`` is the indentation level of its first line."""
        roll = self.rnd.random()
        if depth >= 3 or roll < 0.45:
            return self.scalar()
        if roll < 0.52:
            return self._inline_list(depth)
        if roll < 0.6:
            return self._list(level, depth)
        if roll < 0.66:
            return self._inline_object(depth)
        if roll < 0.76:
            return self._object(level, depth)
        if roll < 0.82:
            return self._call(level, depth)
        if roll < 0.9:
            return self._operator_expression()
        return self._for_expression()

    def _inline_list(self, depth: int) -> str:
        items = [self.scalar() for _ in range(self.rnd.randint(0, 4))]
        if not items:
            return "[" + self._sp() + "]"
        comma = self._sp() + "," + self._sp()
        trail = self.rnd.choice(("", ","))
        return "[" + self._sp() + comma.join(items) + trail + self._sp() + "]"

    def _list(self, level: int, depth: int) -> str:
        lines = ["[" + self._eol() + "\n"]
        for _ in range(self.rnd.randint(1, 4)):
            if self.rnd.random() < 0.15:
                lines.append(self._indent(level + 1) + self._comment())
            item = self.value(level + 1, depth + 1)
            end = self._sp() + "," + self._trailer()
            lines.append(self._indent(level + 1) + item + end)
        lines.append(self._indent(level) + "]")
        return "".join(lines)

    def _inline_object(self, depth: int) -> str:
        used: set[str] = set()
        items = [
            f"{self._name(used)}{self._sp()}={self._sp()}{self.scalar()}"
            for _ in range(self.rnd.randint(0, 3))
        ]
        if not items:
            return "{" + self._sp() + "}"
        return "{" + self._sp() + ("," + self._sp()).join(items) + self._sp() + "}"

    def _object(self, level: int, depth: int) -> str:
        used: set[str] = set()
        lines = ["{" + self._eol() + "\n"]
        for _ in range(self.rnd.randint(1, 6)):
            roll = self.rnd.random()
            if roll < 0.1:
                lines.append("\n")
                continue
            if roll < 0.2:
                lines.append(self._indent(level + 1) + self._comment())
                continue
            if roll < 0.3:
                key = quote(nfc_text(self.rnd, 3))
            elif roll < 0.38:
                key = '"' + self.rnd.choice(GRAPHEME_KEYS) + '"'
            else:
                key = self._name(used)
            item = self.value(level + 1, depth + 1)
            lines.append(f"{self._indent(level + 1)}{key}{self._sp()}={self._sp()}{item}")
            lines.append(self._trailer())
        lines.append(self._indent(level) + "}")
        return "".join(lines)

    def _call(self, level: int, depth: int) -> str:
        name = self.rnd.choice(("merge", "concat", "jsonencode", "lookup", "coalesce", "format"))
        if self.rnd.random() < 0.5:
            args = [self.scalar() for _ in range(self.rnd.randint(0, 3))]
            return name + "(" + self._sp() + ("," + self._sp()).join(args) + self._sp() + ")"
        if self.rnd.random() < 0.3:
            return name + "(" + self._object(level, depth + 1) + ")"
        lines = [name + "(\n"]
        for _ in range(self.rnd.randint(1, 3)):
            item = self.value(level + 1, depth + 1)
            lines.append(self._indent(level + 1) + item + self._sp() + "," + self._eol() + "\n")
        lines.append(self._indent(level) + ")")
        return "".join(lines)

    def _operator_expression(self) -> str:
        a, b = self.rnd.choice(_REFS), self.rnd.choice(_REFS)
        sp = self._sp
        return self.rnd.choice(
            (
                f"{a}{sp()}?{sp()}{b}{sp()}:{sp()}-1",
                f"!{sp()}{a}",
                f'{a}{sp()}=={sp()}"x"{sp()}&&{sp()}{b}{sp()}!={sp()}null',
                f"{a}{self._gap()}-{sp()}1",  # `a-` would lex as one identifier
                f"{a}{sp()}*{sp()}-{sp()}2{sp()}+{sp()}{b}{sp()}%{sp()}3",
                f"({sp()}{a}{sp()}>={sp()}1{sp()})",
                f"-{sp()}{a}",
                f"{a}{sp()}/{sp()}({sp()}1{sp()}-{sp()}{b})",
            )
        )

    def _for_expression(self) -> str:
        ref = self.rnd.choice(_REFS)
        sp, gap = self._sp, self._gap
        return self.rnd.choice(
            (
                f"[for{gap()}x{gap()}in{gap()}{ref}{sp()}:{sp()}upper(x)]",
                f'[for{gap()}x{gap()}in{gap()}{ref}{sp()}:{sp()}x{gap()}if{gap()}x{sp()}!={sp()}""]',
                f"{{for{gap()}k,{sp()}v{gap()}in{gap()}{ref}{sp()}:{sp()}k{sp()}=>{sp()}v}}",
                f"{{for{gap()}k,{sp()}v{gap()}in{gap()}{ref}{sp()}:{sp()}v.g{sp()}=>{sp()}k...}}",
                f"[for{gap()}x{gap()}in{gap()}[1,{sp()}2]{sp()}:{sp()}x]",
            )
        )

    def _template(self) -> str:
        sp = self._sp
        return self.rnd.choice(
            (
                f'"${{{sp()}var.prefix{sp()}}}-gpu-${{{sp()}count.index{sp()}}}"',
                f'"%{{{sp()}if var.on{sp()}}}yes%{{{sp()}else{sp()}}}no%{{{sp()}endif{sp()}}}"',
                f'"x-${{{sp()}{{a = 1}}{sp()}}}"',
                '"${lookup(var.m, "k", "${var.d}")}-z"',
            )
        )

    def heredoc(self, level: int) -> str:
        marker = self.rnd.choice(("EOT", "EOF", "POLICY"))
        dash = self.rnd.choice(("", "-"))
        body: list[str] = []
        for _ in range(self.rnd.randint(0, 4)):
            text = self.rnd.choice(
                (
                    "plain text",
                    "  indented = 1  ",
                    "${ var.x } and $${literal} 100%",
                    '{"json": true}',
                    "",
                    "\t# not a comment",
                    "%{ if var.on }on%{ endif }",
                    "   ",
                )
            )
            body.append(self._indent(level + 1) + text + "\n")
        close = self._indent(level) + marker
        return f"<<{dash}{marker}\n" + "".join(body) + close
