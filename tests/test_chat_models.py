import pytest

from ragkit.core.chat_models import ChatModelUnavailable, describe_backend, load_chat_model, model_name


def test_no_key_means_no_model(no_gemini_key):
    assert load_chat_model() is None
    assert "local" in describe_backend()


def test_required_without_key_says_what_to_do(no_gemini_key):
    with pytest.raises(ChatModelUnavailable, match="GOOGLE_API_KEY"):
        load_chat_model(required=True)


def test_model_names_are_configurable(monkeypatch):
    monkeypatch.setenv("RAGKIT_GEMINI_STRONG_MODEL", "gemini-test-pro")
    assert model_name("strong") == "gemini-test-pro"
    with pytest.raises(ValueError):
        model_name("medium")  # type: ignore[arg-type]


def test_key_builds_gemini_with_short_timeouts(monkeypatch):
    monkeypatch.setenv("GOOGLE_API_KEY", "test-key-not-real")
    model = load_chat_model("strong")
    assert type(model).__name__ == "ChatGoogleGenerativeAI"
    assert model.max_retries <= 1 and model.timeout <= 30
