"""Text-level JSON/JSONC edits: comments, trailing commas and layout survive; remove undoes add."""

from __future__ import annotations

import json

import pytest

from recollect import jsonc

ENTRY = {"type": "local", "command": ["/abs/python", "-m", "recollect.cli", "mcp"], "timeout": 30000}

TRICKY = {
    "comments everywhere": """// top comment
{
  "$schema": "https://opencode.ai/config.json", // schema
  /* a block
     comment */
  "theme": "dark" // last member, with a comment after it
}
""",
    "existing mcp with other servers, trailing commas": """{
  "mcp": {
    "github": {"type": "remote", "url": "https://example.invalid/mcp"}, // remote one
    "files": {
      "type": "local",
      "command": ["npx", "files-mcp"],
    },
  },
  "autoupdate": false,
}
""",
    "one line": '{"a": 1, "mcp": {"x": {"enabled": false}}}',
    "one line trailing comma": '{"a": 1,}',
    "empty root": "{}",
    "empty mcp": '{\n  "mcp": {}\n}\n',
    "mcp with only a comment": '{\n  "mcp": {\n    // nothing yet\n  }\n}',
    "tabs": '{\n\t"mcp": {\n\t\t"x": {"enabled": false}\n\t}\n}\n',
    "four spaces, BOM": '\ufeff{\n    "a": [1, 2,], /* c */\n    "b": "x\\"y" /* after */\n}',
    "strings that look like comments": '{\n  "url": "http://a//b", "glob": "/* not a comment */",\n  "esc": "\\\\"\n}',
    "CRLF": '{\r\n  "a": 1, // one\r\n  "b": 2\r\n}\r\n',
    "comment between members": '{\n  "a": 1,\n  // about b\n  "b": 2\n}',
}


@pytest.mark.parametrize("name", list(TRICKY))
def test_add_then_remove_gives_the_same_bytes(name: str) -> None:
    text = TRICKY[name]
    before = jsonc.loads(text)
    new, what = jsonc.set_member(text, ["mcp", "recollect"], ENTRY)
    assert what == "added"
    after = jsonc.loads(new)
    assert after["mcp"]["recollect"] == ENTRY
    # Everything else reads the same, and every comment is still in the text.
    assert {k: v for k, v in after.items() if k != "mcp"} == {k: v for k, v in before.items() if k != "mcp"}
    assert {k: v for k, v in after["mcp"].items() if k != "recollect"} == before.get("mcp", {})
    for marker in ("//", "/*"):
        assert new.count(marker) >= text.count(marker)
    back, found = jsonc.delete_member(new, ["mcp", "recollect"])
    assert found
    if "mcp" not in before:
        back, _ = jsonc.delete_member(back, ["mcp"])
    assert back == text


def test_comments_stay_on_their_lines() -> None:
    new, _ = jsonc.set_member(TRICKY["comments everywhere"], ["mcp", "recollect"], ENTRY)
    assert '"theme": "dark", // last member, with a comment after it\n' in new
    assert new.startswith("// top comment\n{")
    # Our block follows the commented line, indented like its neighbours.
    assert '\n  "mcp": {\n    "recollect": {\n      "type": "local",' in new


def test_trailing_comma_style_is_kept() -> None:
    new, _ = jsonc.set_member(TRICKY["existing mcp with other servers, trailing commas"], ["mcp", "recollect"], ENTRY)
    assert '    "recollect": {' in new
    assert '"timeout": 30000\n    },\n  },' in new  # our member ends with a comma like the others
    assert jsonc.loads(new)["mcp"]["github"]["type"] == "remote"


def test_crlf_stays_crlf() -> None:
    new, _ = jsonc.set_member(TRICKY["CRLF"], ["mcp", "recollect"], ENTRY)
    assert "\n" not in new.replace("\r\n", "")


def test_plain_json_stays_valid_json() -> None:
    text = json.dumps({"model": "x/y", "mcp": {"other": {"type": "local", "command": ["a"]}}}, indent=2) + "\n"
    new, _ = jsonc.set_member(text, ["mcp", "recollect"], ENTRY)
    assert json.loads(new)["mcp"]["recollect"] == ENTRY  # strict JSON parser: no trailing comma slipped in


def test_replace_and_unchanged() -> None:
    text, _ = jsonc.set_member('{\n  "mcp": {}\n}', ["mcp", "recollect"], ENTRY)
    same, what = jsonc.set_member(text, ["mcp", "recollect"], ENTRY)
    assert (same, what) == (text, "unchanged")
    changed, what = jsonc.set_member(text, ["mcp", "recollect"], {**ENTRY, "timeout": 5})
    assert what == "replaced" and jsonc.loads(changed)["mcp"]["recollect"]["timeout"] == 5


def test_remove_a_member_someone_else_added_around_ours() -> None:
    text = '{\n  "mcp": {\n    "recollect": {"type": "local"}, // ours\n    "b": {"type": "local"}\n  }\n}\n'
    new, found = jsonc.delete_member(text, ["mcp", "recollect"])
    assert found and new == '{\n  "mcp": {\n    "b": {"type": "local"}\n  }\n}\n'
    middle = '{"mcp": {\n  "a": 1,\n  "recollect": 2,\n  "c": 3\n}}'
    assert jsonc.delete_member(middle, ["mcp", "recollect"])[0] == '{"mcp": {\n  "a": 1,\n  "c": 3\n}}'
    assert jsonc.delete_member(middle, ["mcp", "absent"]) == (middle, False)


@pytest.mark.parametrize(
    "bad",
    ['{"a": 1', '{"a" 1}', '{"a": 1 "b": 2}', "{/* open", '{"a": "unclosed}', '{"a": nope}', "[1,,2]", '{"a": 1} x'],
)
def test_unreadable_text_is_an_error_with_a_place(bad: str) -> None:
    with pytest.raises(jsonc.JsoncError, match="line 1"):
        jsonc.parse(bad)


def test_a_non_object_where_an_object_is_needed() -> None:
    with pytest.raises(jsonc.JsoncError, match="mcp is not an object"):
        jsonc.set_member('{"mcp": []}', ["mcp", "recollect"], ENTRY)
    with pytest.raises(jsonc.JsoncError, match="top level"):
        jsonc.set_member("[]", ["mcp"], ENTRY)


def test_duplicate_keys_last_one_wins_like_json_parse() -> None:
    assert jsonc.loads('{"a": 1, "a": 2}') == {"a": 2}
