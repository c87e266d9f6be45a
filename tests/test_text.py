import pytest

from ragkit.core.nlp import LUCENE_STOPWORDS, clean_query, key_terms, split_sentences, tokenize


def test_lucene_stopword_list_has_33_words():
    assert len(LUCENE_STOPWORDS) == 33


def test_tokenize_drops_stopwords_and_stems():
    assert tokenize("The studies of running rivers") == ["studi", "run", "river"]


@pytest.mark.parametrize("query", ["", "   ", "\n\t"])
def test_blank_queries_are_rejected(query):
    with pytest.raises(ValueError, match="empty"):
        clean_query(query)


def test_huge_queries_are_rejected_with_the_limit():
    with pytest.raises(ValueError, match="100,000 characters"):
        clean_query("x" * 100_000)


def test_non_string_query():
    with pytest.raises(TypeError):
        clean_query(None)


def test_sentences_keep_decimals_and_abbreviations():
    text = "Fines reach 12.5 million. See e.g. Article 4. Done!\n\n- a list item"
    assert split_sentences(text) == ["Fines reach 12.5 million.", "See e.g. Article 4.", "Done!", "- a list item"]


def test_key_terms_are_unique_content_stems():
    assert key_terms("What wines, which wine?") == ["wine"]


def test_accents_are_folded():
    assert tokenize("Café crème") == tokenize("cafe creme")
