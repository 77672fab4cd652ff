"""The web page in a real browser: search -> session -> paging, review, editing, hiding, and the
security promises (token, Host, Origin, CSRF, inert transcript markup)."""

from __future__ import annotations

import http.client
import urllib.parse
from typing import Any

from recollect import history
from recollect.memory import get_memory, open_memory
from recollect.memory.recall import read_log

from .conftest import World, open_page, shot, wait_for


def css(driver: Any, selector: str) -> Any:
    from selenium.webdriver.common.by import By

    return driver.find_element(By.CSS_SELECTOR, selector)


def all_css(driver: Any, selector: str) -> list[Any]:
    from selenium.webdriver.common.by import By

    return list(driver.find_elements(By.CSS_SELECTOR, selector))


def test_search_open_a_hit_and_page_the_transcript(world: World, browser: Any) -> None:
    box = open_page(browser, world.url, "#q")[0]
    box.send_keys("ECONNREFUSED 5432")
    css(browser, "#go").click()
    wait_for(lambda: all_css(browser, "li.hit"))
    hits = all_css(browser, "li.hit")
    assert hits and "ECONNREFUSED" in hits[0].text
    assert "matched:" in hits[0].text  # why it matched is shown
    shot(browser, world, "search")

    css(browser, "li.hit a.title").click()
    wait_for(lambda: all_css(browser, "article.message"))
    assert "deploy fails" in css(browser, "#session-title").text or "ECONNREFUSED" in browser.page_source
    first_window = [m.get_attribute("id") for m in all_css(browser, "article.message")]
    assert "Session" in css(browser, "aside.card").text
    shot(browser, world, "session")

    css(browser, "#nav-tail").click()
    wait_for(lambda: [m.get_attribute("id") for m in all_css(browser, "article.message")] != first_window)
    later = [m.get_attribute("id") for m in all_css(browser, "article.message")]
    assert later != first_window
    diff = css(browser, "pre.diff")  # the Edit tool's change, drawn as a diff
    assert "-port = 5432" in diff.text and "+port = 6543" in diff.text
    assert css(browser, "pre.diff .add").text == "+port = 6543"
    assert "Fixed: staging Postgres" in browser.page_source
    shot(browser, world, "session-paged")


def test_accept_a_proposal_changes_the_file_and_the_audit_log(world: World, browser: Any) -> None:
    space = open_memory(world.alpha)
    assert get_memory(space, "rules/deploy-with-pnpm").status == "proposed"  # positive control
    before = len(read_log(space))
    open_page(browser, world.url, "#q")
    proposal = open_page(browser, world.base + "/review", "section.proposal")[0]
    assert "deploy with pnpm" in proposal.text
    shot(browser, world, "review")
    css(browser, "section.proposal button.accept").click()
    wait_for(lambda: all_css(browser, "#done"))
    assert "accepted project:rules/deploy-with-pnpm" in css(browser, "#done").text
    entry = get_memory(space, "rules/deploy-with-pnpm")
    assert entry.status == "active" and entry.memory.reviewed_by
    assert "status: active" in entry.memory.path.read_text(encoding="utf-8")
    log = read_log(space)
    assert len(log) == before + 1 and log[-1].op == "accept" and log[-1].id == "rules/deploy-with-pnpm"
    shot(browser, world, "review-accepted")


def test_edit_a_memory_in_place(world: World, browser: Any) -> None:
    open_page(browser, world.url, "#q")
    link = open_page(browser, world.base + "/memories", "#mem-facts-staging-db-port a")[0]
    assert link.text == "staging db port"
    link.click()
    wait_for(lambda: all_css(browser, "#body"), "the memory's page")
    body = css(browser, "#body")
    body.clear()
    body.send_keys("Staging Postgres listens on 6543 (moved from 5432 in November).")
    css(browser, "#save").click()
    wait_for(lambda: all_css(browser, "#saved"), "the page saying it saved")
    memory = get_memory(open_memory(world.alpha), "facts/staging-db-port").memory
    assert memory.body.strip() == "Staging Postgres listens on 6543 (moved from 5432 in November)."
    assert "moved from 5432" in memory.path.read_text(encoding="utf-8")
    assert read_log(open_memory(world.alpha))[-1].op == "edit"
    shot(browser, world, "memory-edited")


def test_a_secret_typed_into_a_memory_is_refused_and_not_written(world: World, browser: Any) -> None:
    open_page(browser, world.url, "#q")
    body = open_page(browser, world.base + "/memory?id=project:facts/staging-db-port", "#body")[0]
    body.clear()
    body.send_keys("the key is ghp_" + "Z" * 36)
    css(browser, "#save").click()
    wait_for(lambda: all_css(browser, "#problem"))
    assert "secret" in css(browser, "#problem").text.lower() or "token" in css(browser, "#problem").text.lower()
    path = get_memory(open_memory(world.alpha), "facts/staging-db-port").memory.path
    assert "ghp_" not in path.read_text(encoding="utf-8")


def test_hide_a_session_then_it_is_gone_from_search(world: World, browser: Any) -> None:
    assert history.search("ECONNREFUSED", sync_first=False).hits  # positive control
    open_page(browser, world.url, "#q")
    open_page(browser, world.base + "/search?q=ECONNREFUSED", "li.hit a.title")[0].click()
    wait_for(lambda: all_css(browser, "#hide-why"))
    css(browser, "#hide-why").send_keys("wrong diagnosis, do not reuse")
    css(browser, "#hide").click()
    wait_for(lambda: all_css(browser, "#done"))
    assert "hid" in css(browser, "#done").text
    shot(browser, world, "hidden")
    open_page(browser, world.base + "/search?q=ECONNREFUSED", "#q")
    assert not all_css(browser, "li.hit a.title")
    assert history.search("ECONNREFUSED", sync_first=False).hits == []
    css_text = browser.page_source
    assert "deploy fails" not in css_text

    open_page(browser, world.base + "/hidden", "button.unhide")[0].click()
    wait_for(lambda: all_css(browser, "#done"))
    assert history.search("ECONNREFUSED", sync_first=False).hits  # back again


def test_transcript_markup_renders_inert(world: World, browser: Any) -> None:
    open_page(browser, world.url, "#q")
    open_page(browser, world.base + "/search?q=click+me+link", "li.hit")
    assert browser.execute_script("return window.__xss === undefined")
    css(browser, "li.hit a.title").click()
    wait_for(lambda: all_css(browser, "article.message"))
    assert browser.execute_script("return window.__xss === undefined")
    text = css(browser, "section.transcript").text
    assert "<script>window.__xss = 1</script>" in text  # shown as text...
    assert not [a for a in all_css(browser, "a") if (a.get_attribute("href") or "").startswith("javascript:")]
    assert not all_css(browser, "section.transcript img, section.transcript script")  # ...never as markup
    shot(browser, world, "xss-inert")


def _request(world: World, method: str, path: str, *, headers: dict[str, str], body: str = "") -> tuple[int, str]:
    netloc = urllib.parse.urlsplit(world.base).netloc
    conn = http.client.HTTPConnection(netloc, timeout=10)
    conn.request(method, path, body=body or None, headers=headers)
    response = conn.getresponse()
    return response.status, response.read().decode("utf-8", "replace")


def test_token_host_origin_and_csrf_are_required(world: World) -> None:
    host = urllib.parse.urlsplit(world.base).netloc
    cookie = f"recollect_ui_{host.rsplit(':', 1)[1]}={world.token}"
    status, _ = _request(world, "GET", f"/search?token={world.token}", headers={"Host": host})
    assert status == 200  # positive control
    assert _request(world, "GET", "/search", headers={"Host": host})[0] == 403
    assert _request(world, "GET", "/search?token=wrong", headers={"Host": host})[0] == 403
    assert _request(world, "GET", "/search?token=%C3%A9t%C3%A9", headers={"Host": host})[0] == 403  # not a 500
    assert _request(world, "GET", "/static/ui.css", headers={"Host": host})[0] == 403
    # DNS rebinding: the right token, but a page served under another name.
    assert _request(world, "GET", f"/search?token={world.token}", headers={"Host": "evil.example:80"})[0] == 403

    from recollect.ui.guard import csrf_token

    form = urllib.parse.urlencode(
        {"csrf": csrf_token(world.token), "id": "project:facts/staging-db-port", "summary": "x"}
    )
    post = {"Host": host, "Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"}
    status, text = _request(world, "POST", "/memory", headers={**post, "Origin": "http://evil.example"}, body=form)
    assert status == 403 and "cross-origin" in text
    status, _ = _request(world, "POST", "/memory", headers=post, body=form)  # no Origin at all
    assert status == 403
    no_csrf = urllib.parse.urlencode({"id": "project:facts/staging-db-port", "summary": "x"})
    status, text = _request(world, "POST", "/memory", headers={**post, "Origin": world.base}, body=no_csrf)
    assert status == 403 and "CSRF" in text
    assert get_memory(open_memory(world.alpha), "facts/staging-db-port").memory.summary == "staging db port"

    status, text = _request(world, "GET", f"/search?token={world.token}", headers={"Host": host})
    assert "script-src 'self'" in _headers(world, host).get("content-security-policy", "")


def _headers(world: World, host: str) -> dict[str, str]:
    conn = http.client.HTTPConnection(host, timeout=10)
    conn.request("GET", f"/search?token={world.token}", headers={"Host": host})
    response = conn.getresponse()
    response.read()
    return {k.lower(): v for k, v in response.getheaders()}


def test_memory_search_shows_why_each_memory_matched(world: World) -> None:
    host = urllib.parse.urlsplit(world.base).netloc
    query = urllib.parse.urlencode({"q": "staging port", "kind": "memory", "token": world.token})
    status, body = _request(world, "GET", f"/search?{query}", headers={"Host": host})
    assert status == 200
    assert "staging db port" in body and "matched: staging" in body and "port" in body.split("matched:", 1)[1]
    query = urllib.parse.urlencode({"q": "kubernetes helm", "kind": "memory", "token": world.token})
    status, body = _request(world, "GET", f"/search?{query}", headers={"Host": host})
    assert status == 200 and "No memory matches." in body and "staging db port" not in body


def test_a_history_hit_says_the_words_the_user_typed_not_their_stems(world: World) -> None:
    host = urllib.parse.urlsplit(world.base).netloc
    query = urllib.parse.urlencode({"q": "ECONNREFUSED 5432", "token": world.token})
    status, body = _request(world, "GET", f"/search?{query}", headers={"Host": host})
    assert status == 200 and "staging" in body  # positive control: the session is found
    said = [part.split("</span>", 1)[0] for part in body.split('<span class="why">')[1:]]
    assert said and all(why.startswith("matched: ECONNREFUSED, 5432") for why in said), said
    assert "econnrefus" not in " ".join(said)  # the index's stem is not shown beside the word


def test_a_correction_is_shown_and_exact_turns_it_off(world: World) -> None:
    host = urllib.parse.urlsplit(world.base).netloc
    fuzzy = urllib.parse.urlencode({"q": "staginng postgres", "token": world.token})
    status, body = _request(world, "GET", f"/search?{fuzzy}", headers={"Host": host})
    assert status == 200 and 'id="corrections"' in body and "also searched" in body
    exact = urllib.parse.urlencode({"q": "staginng postgres", "exact": "1", "token": world.token})
    status, body = _request(world, "GET", f"/search?{exact}", headers={"Host": host})
    assert status == 200 and "also searched" not in body


def test_a_cards_header_is_flush_with_its_text_not_padded_like_the_page_bar(world: World, browser: Any) -> None:
    open_page(browser, world.url, "#q")  # the token, as the printed URL gives it
    open_page(browser, world.base + "/memories", "article.memory > header")

    def padding(selector: str) -> str:
        return str(browser.execute_script(f"return getComputedStyle(document.querySelector('{selector}')).paddingLeft"))

    assert padding("body > header") != "0px"  # positive control: the page's bar keeps its padding
    assert padding("article.memory > header") == "0px"  # the bar's style no longer reaches a card's header
    assert padding("article.memory > div.body") == "0px"  # ...so it lines up with the card's text
