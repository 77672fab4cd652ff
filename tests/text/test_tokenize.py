from recollect.text.tokenize import as_typed, identifiers_in, query_terms, query_words, tokenize


def test_identifiers_kept_whole_and_split() -> None:
    tokens = tokenize("parseHttpResponse")
    assert tokens[0] == "parsehttpresponse"
    assert {"parse", "http", "response"} <= set(tokens)


def test_paths_kept_whole_split_and_basename() -> None:
    tokens = set(tokenize("see src/auth/token.ts"))
    assert {"src/auth/token.ts", "token.ts", "auth", "token"} <= tokens


def test_snake_and_screaming_case() -> None:
    assert {"test_auth_retry", "test", "auth", "retry"} <= set(tokenize("test_auth_retry"))
    assert {"err_connection_refused", "connection", "refused"} <= set(tokenize("ERR_CONNECTION_REFUSED"))


def test_latin_folded_and_lightly_stemmed() -> None:
    assert tokenize("Café") == ["cafe"]
    assert set(tokenize("tests")) == {"tests", "test"}
    assert "fix" in tokenize("fixes")


def test_cjk_bigrams_make_two_character_words_findable() -> None:
    doc = set(tokenize("部署脚本用 pnpm 而不是 npm，因为 lockfile 不兼容"))
    assert set(query_terms("部署")) <= doc
    assert set(query_terms("部署脚本")) <= doc
    assert "pnpm" in doc
    # negative: a bigram that does not occur in the sentence
    assert "脚部" not in doc


def test_stopwords_dropped_from_plain_words_only() -> None:
    assert query_terms("what did we decide about the rate limiter") == ["decide", "decid", "rate", "limiter"]
    assert "the_thing" in tokenize("the_thing")


def test_tokens_never_contain_quotes_or_spaces() -> None:
    for token in tokenize('say "hello" to it\'s O\'Brien `cmd --flag=1` a/b "quoted/path.py"'):
        assert '"' not in token and " " not in token and token


def test_identifiers_in_finds_code_words() -> None:
    found = identifiers_in("parseHttpResponse failed in src/auth/token.ts with ERR_CONN; plain words here")
    assert found == ["parseHttpResponse", "src/auth/token.ts", "ERR_CONN"]


def test_as_typed_says_a_match_in_the_words_typed() -> None:
    words = query_words("Deploying missing-file.txt 部署项目")
    assert as_typed(words, {"deploy"}) == {"Deploying": ("deploy",)}  # a stem, said as the word
    assert as_typed(words, {"missing-file.txt", "file"}) == {"missing-file.txt": ("missing-file.txt", "file")}
    assert as_typed(words, {"file"}) == {"file": ("file",)}  # a part does not stand for the identifier
    assert as_typed(words, {"部署"}) == {"部署": ("部署",)}  # a bigram, not the whole run
    assert as_typed(words, {"staging"}) == {}
