"""A memory file whose frontmatter a person broke by hand: the page says so, and names it by its text."""

from __future__ import annotations

import http.client
import urllib.parse

from .conftest import World

BROKEN = "---\nid: facts/broken\nsummary: [unclosed\n---\nThe CI cache key is the lockfile hash.\n"


def page(world: World, path: str) -> str:
    netloc = urllib.parse.urlsplit(world.base).netloc
    conn = http.client.HTTPConnection(netloc, timeout=10)
    conn.request("GET", f"{path}?token={world.token}", headers={"Host": netloc})
    response = conn.getresponse()
    assert response.status == 200
    return response.read().decode("utf-8")


def test_a_broken_memory_file_is_flagged_on_the_memories_page(world: World) -> None:
    before = page(world, "/memories")
    assert "staging db port" in before and 'class="problem"' not in before  # positive control: a sound file
    (world.alpha / ".memory" / "facts" / "broken.md").write_text(BROKEN, encoding="utf-8")
    after = page(world, "/memories")
    article = after.split('id="mem-facts-broken"', 1)[1].split("</article>", 1)[0]
    assert "The CI cache key is the lockfile hash." in article.split("</a>", 1)[0]  # its summary: its text
    assert 'class="problem"' in article and "frontmatter cannot be read" in article
    assert "recollect memory inspect" in article
    sound = after.split('id="mem-facts-staging-db-port"', 1)[1].split("</article>", 1)[0]
    assert 'class="problem"' not in sound
