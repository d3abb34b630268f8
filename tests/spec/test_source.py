"""Reading YAML into located nodes: encodings, limits, YAML 1.2 scalars, refused features."""

from __future__ import annotations

from pathlib import Path

import pytest

from gpuplat.spec.diagnostics import Mark
from gpuplat.spec.source import MAX_BYTES, load_bytes, load_file


def only_error(data: bytes) -> tuple[str, Mark | None, str | None]:
    result = load_bytes(data, "gpuplat.yaml")
    assert result.root is None
    assert len(result.diagnostics) == 1
    diag = result.diagnostics[0]
    return diag.message, diag.mark, diag.hint


def test_binary_garbage_reports_the_first_bad_byte() -> None:
    message, mark, hint = only_error(b"project: demo\nclusters:\n  - \xff\xfe\x00garbage\n")
    assert message == "not UTF-8 text: byte 0xff cannot be decoded"
    assert mark == Mark("gpuplat.yaml", 3, 5)
    assert hint == "a spec must be a UTF-8 YAML file; is this a binary file?"


def test_png_header_is_binary_garbage() -> None:
    message, mark, _ = only_error(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    assert message == "not UTF-8 text: byte 0x89 cannot be decoded"
    assert mark == Mark("gpuplat.yaml", 1, 1)


def test_control_character_is_located() -> None:
    message, mark, hint = only_error(b"project: demo\nregion: us\x07east\n")
    assert message == "invalid YAML: control characters are not allowed (U+0007)"
    assert mark == Mark("gpuplat.yaml", 2, 11)
    assert hint == "remove the control character; a spec must be plain text"


def test_very_large_file_is_refused_before_reading(tmp_path: Path) -> None:
    path = tmp_path / "gpuplat.yaml"
    with path.open("wb") as fh:
        fh.write(b"project: demo\n")
        fh.write(b"# padding\n" * (MAX_BYTES // 10 + 1))
    result = load_file(path, "gpuplat.yaml")
    assert result.root is None
    diag = result.diagnostics[0]
    assert diag.message == "file is 8.0 MiB; a spec may be at most 8 MiB"
    assert diag.mark == Mark("gpuplat.yaml", 1, 1)


def test_unreadable_file(tmp_path: Path) -> None:
    result = load_file(tmp_path / "missing.yaml", "missing.yaml")
    assert result.root is None
    assert result.diagnostics[0].message == "cannot read file: No such file or directory"


def test_utf8_bom_is_accepted() -> None:
    result = load_bytes("\ufeffproject: démo\n".encode(), "gpuplat.yaml")
    assert result.diagnostics == []
    assert result.root is not None
    assert result.root.to_data() == {"project": "démo"}


def test_alias_bomb_is_stopped() -> None:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 9):
        refs = ", ".join([f"*a{i - 1}"] * 10)
        lines.append(f"a{i}: &a{i} [{refs}]")
    message, mark, hint = only_error(("\n".join(lines) + "\n").encode())
    assert message == "document expands to more than 500,000 values"
    assert mark is not None and mark.file == "gpuplat.yaml"
    assert hint is not None and "anchors/aliases" in hint


def test_deep_nesting_is_stopped() -> None:
    text = "a: " + "[" * 80 + "]" * 80 + "\n"
    message, _, _ = only_error(text.encode())
    assert message == "values are nested more than 64 levels deep"


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("on", "on"),
        ("yes", "yes"),
        ("NO", "NO"),
        ("true", True),
        ("False", False),
        ("~", None),
        ("", None),
        ("0o17", 15),
        ("0x1F", 31),
        ("017", 17),
        ("1.30", 1.3),
        ("1e3", 1000.0),
        (".inf", float("inf")),
        ("12:30", "12:30"),
        ("2026-11-30", "2026-11-30"),
        ('"1.30"', "1.30"),
        ("'true'", "true"),
        ("!!str 3", "3"),
        ("!!float 3", 3.0),
    ],
)
def test_scalars_follow_yaml_1_2_core(text: str, value: object) -> None:
    result = load_bytes(f"k: {text}\n".encode(), "f.yaml")
    assert result.diagnostics == []
    assert result.root is not None
    assert result.root.to_data() == {"k": value}


def test_marks_are_one_based_and_keep_keys() -> None:
    result = load_bytes(b"a:\n  b: [1, 2]\n", "f.yaml")
    root = result.root
    assert root is not None and isinstance(root.value, dict)
    b = root.value["a"].value
    assert isinstance(b, dict)
    node = b["b"]
    assert node.key_mark == Mark("f.yaml", 2, 3)
    assert node.mark == Mark("f.yaml", 2, 6)
    assert isinstance(node.value, list)
    assert node.value[1].mark == Mark("f.yaml", 2, 10)


def test_all_duplicate_keys_are_reported_and_the_first_value_kept() -> None:
    result = load_bytes(b"a: 1\nb: 2\na: 3\nb: 4\n", "f.yaml")
    assert [d.message for d in result.diagnostics] == [
        'duplicate key "a" (first defined at line 1, column 1)',
        'duplicate key "b" (first defined at line 2, column 1)',
    ]
    assert result.root is not None
    assert result.root.to_data() == {"a": 1, "b": 2}


def test_bad_explicit_tag_value() -> None:
    result = load_bytes(b"k: !!int abc\n", "f.yaml")
    assert [d.message for d in result.diagnostics] == ["value 'abc' is not a valid !!int"]


def test_empty_overlay_is_an_empty_mapping() -> None:
    result = load_bytes(b"# only a comment\n", "envs/dev.yaml", allow_empty=True)
    assert result.diagnostics == []
    assert result.root is not None
    assert result.root.to_data() == {}
